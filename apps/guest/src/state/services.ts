import { createContext, useContext } from 'react';
import { fetchCompanyDetails, type Company } from '../api/company.ts';
import type { GateServices } from '../journey/controller.ts';

/** Outside services the app uses; tests and dev fixtures swap them. */
export interface AppServices {
  /** Fetches the company details. */
  loadCompany: (signal?: AbortSignal) => Promise<Company>;
  /** The gate's checks (journey/controller.ts); null = no gate (dev fixtures). */
  gate: GateServices | null;
}

export const defaultServices: AppServices = { loadCompany: fetchCompanyDetails, gate: null };
export const AppServicesContext = createContext<AppServices>(defaultServices);
export const useAppServices = (): AppServices => useContext(AppServicesContext);
