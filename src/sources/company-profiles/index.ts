import { defineSource } from '../kit/source-module';
import { CompanyClaims } from './company-claims';
import { CompanyProfiles } from './company-profiles';
import { companyProfilesSettings } from './settings';
import { SiteReader } from './site-reader';

/** Company facts, boards and feeds from companies' own sites (docs/sources/company-profiles.md). */
export const companyProfilesSource = defineSource({
  name: 'company-profiles',
  settings: companyProfilesSettings,
  intervalMs: (settings) => settings.COMPANY_PROFILES_INTERVAL,
  create: (kit, settings) => {
    const companyClaims = new CompanyClaims(kit.db, kit.ingestion);
    const companyProfiles = new CompanyProfiles(
      kit.db,
      companyClaims,
      kit.politeFetch,
      new SiteReader(kit.politeFetch, kit.siteRobots, kit.documents),
      kit.siteFindings,
      settings.COMPANY_PROFILES_PER_ACCOUNT,
    );
    return { source: companyProfiles, parts: { companyProfiles, companyClaims } };
  },
});
