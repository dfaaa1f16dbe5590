import { defineSource } from '../kit/source-module';
import { PeopleDataChanges } from './people-data-changes';
import { PeopleDataLabsApi } from './people-data-labs';
import { peopleDataLabsSettings } from './settings';

/** Job changes from People Data Labs' monthly releases (docs/sources/people-data-labs.md). */
export const peopleDataLabsSource = defineSource({
  name: 'people-data-labs',
  settings: peopleDataLabsSettings,
  intervalMs: (settings) => settings.PEOPLE_DATA_LABS_INTERVAL,
  create: (kit, settings) => {
    const key = settings.PEOPLE_DATA_LABS_API_KEY;
    const peopleDataLabs = new PeopleDataChanges(kit.db, kit.ingestion, kit.politeFetch, {
      name: 'people-data-labs',
      vendor: key ? new PeopleDataLabsApi(key, (request) => kit.politeFetch.send(request)) : null,
      release: settings.PEOPLE_DATA_LABS_VERSION,
      creditPriceUsd: settings.PEOPLE_DATA_LABS_CREDIT_PRICE_USD,
    });
    return { source: peopleDataLabs, parts: { peopleDataLabs } };
  },
});
