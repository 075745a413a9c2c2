import { createContext, useContext } from 'react';
import { fetchCompanyDetails, type Company } from '../api/company.ts';

/** Outside services the app uses; tests and dev fixtures swap them. */
export interface AppServices {
  /** Fetches the company details. */
  loadCompany: (signal?: AbortSignal) => Promise<Company>;
}

export const defaultServices: AppServices = { loadCompany: fetchCompanyDetails };
export const AppServicesContext = createContext<AppServices>(defaultServices);
export const useAppServices = (): AppServices => useContext(AppServicesContext);
