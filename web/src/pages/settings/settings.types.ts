import type { CompanyCreatedView, CompanyView, Help } from '../../api/types';

/** Records the settings tabs read and write (shapes of /api/companies, /api/helps). */

export type Company = CompanyView;
export type CompanyCreated = CompanyCreatedView;
export type { Help };

