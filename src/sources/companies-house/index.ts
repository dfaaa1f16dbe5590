import { defineSource } from '../kit/source-module';
import { CompaniesHouse } from './companies-house';
import { companiesHouseSettings } from './settings';

/** Officer appointments (job changes), PSC takeovers (deals) and capital filings from UK Companies House (docs/sources/companies-house.md). */
export const companiesHouseSource = defineSource({
  name: 'companies-house',
  settings: companiesHouseSettings,
  intervalMs: (settings) => settings.COMPANIES_HOUSE_INTERVAL,
  create: (kit, settings) => {
    const companiesHouse = new CompaniesHouse(kit.db, kit.ingestion, kit.politeFetch, settings);
    return { source: companiesHouse, parts: { companiesHouse } };
  },
});
