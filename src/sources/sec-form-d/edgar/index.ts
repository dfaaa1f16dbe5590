export { parseFormD, POOLED_INVESTMENT_FUND, type FormD, type FormDIssuer, type RelatedPerson } from './form-d';
export {
  CURRENT_FEED_PAGE_SIZE,
  currentFormDFeedUrl,
  dailyFormIndexUrl,
  parseCurrentFeed,
  parseDailyFormIndex,
  primaryDocUrl,
  type ListedFiling,
} from './filings';
