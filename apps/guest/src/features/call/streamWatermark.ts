import type { Company } from '../../api/company.ts';

/**
 * The company's stream watermark (streamWatermark, default hidden) for the call engine, which draws it
 * into the guest's sent video: the waterMarkLogo when it is an http(s) image, else the company's name.
 */
export function streamWatermarkOf(
  company: Pick<Company, 'name' | 'streamWatermark' | 'waterMarkLogo'>,
): { text: string; imageUrl: string | null } | null {
  if (company.streamWatermark !== 'visible') return null;
  const logo = company.waterMarkLogo && /^https?:\/\//.test(company.waterMarkLogo) ? company.waterMarkLogo : null;
  return { text: company.name, imageUrl: logo };
}
