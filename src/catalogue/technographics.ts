/**
 * Technographic tools: products a company can be seen using (its `techStack`).
 * Backs `GET /api/v1/technographics` and the `list_technographic_tools` tool;
 * the demo generator draws company stacks from it, so every name is a real,
 * widely deployed product.
 */

export interface TechnographicTool {
  name: string;
  category: string;
}

const CATALOGUE: Readonly<Record<string, readonly string[]>> = {
  CRM: [
    'Salesforce',
    'HubSpot CRM',
    'Pipedrive',
    'Zoho CRM',
    'Microsoft Dynamics 365',
    'Close',
    'Copper',
    'Freshsales',
  ],
  'Marketing Automation': [
    'HubSpot Marketing Hub',
    'Marketo',
    'Pardot',
    'ActiveCampaign',
    'Eloqua',
    'Customer.io',
    'Braze',
    'Iterable',
  ],
  'Email Marketing': ['Mailchimp', 'Klaviyo', 'SendGrid', 'Brevo', 'Campaign Monitor', 'Constant Contact'],
  'Sales Engagement': [
    'Outreach',
    'Salesloft',
    'Apollo.io',
    'lemlist',
    'Instantly',
    'Smartlead',
    'Reply.io',
    'Gong',
    'Chorus',
  ],
  Analytics: [
    'Google Analytics',
    'Mixpanel',
    'Amplitude',
    'Heap',
    'Hotjar',
    'FullStory',
    'Adobe Analytics',
    'Matomo',
    'Plausible',
    'PostHog',
  ],
  'Tag Management': ['Google Tag Manager', 'Segment', 'Tealium', 'RudderStack'],
  Advertising: ['Google Ads', 'Meta Ads', 'LinkedIn Ads', 'Microsoft Advertising', 'Criteo', 'The Trade Desk'],
  'Cloud Infrastructure': [
    'Amazon Web Services',
    'Microsoft Azure',
    'Google Cloud Platform',
    'DigitalOcean',
    'Heroku',
    'Vercel',
    'Netlify',
    'Cloudflare',
    'Oracle Cloud Infrastructure',
    'OVHcloud',
  ],
  'Content Delivery': ['Akamai', 'Fastly', 'Amazon CloudFront'],
  Databases: [
    'PostgreSQL',
    'MySQL',
    'MongoDB',
    'Redis',
    'Elasticsearch',
    'Microsoft SQL Server',
    'Oracle Database',
    'Cassandra',
    'DynamoDB',
  ],
  'Data Warehouse': ['Snowflake', 'Google BigQuery', 'Amazon Redshift', 'Databricks', 'ClickHouse'],
  'Data Integration': ['Fivetran', 'Airbyte', 'dbt', 'Apache Airflow', 'Apache Kafka', 'Informatica', 'Talend'],
  'Business Intelligence': ['Tableau', 'Looker', 'Power BI', 'Metabase', 'Qlik', 'Mode', 'Sisense'],
  'DevOps and CI/CD': [
    'GitHub',
    'GitLab',
    'Bitbucket',
    'Jenkins',
    'CircleCI',
    'GitHub Actions',
    'Docker',
    'Kubernetes',
    'Terraform',
    'Ansible',
  ],
  Monitoring: [
    'Datadog',
    'New Relic',
    'Sentry',
    'Grafana',
    'Prometheus',
    'Splunk',
    'Dynatrace',
    'PagerDuty',
    'Elastic Observability',
  ],
  Security: [
    'Okta',
    'Auth0',
    'CrowdStrike',
    'Palo Alto Networks',
    'Zscaler',
    '1Password',
    'Snyk',
    'Wiz',
    'SentinelOne',
    'Cloudflare Zero Trust',
  ],
  'Customer Support': ['Zendesk', 'Intercom', 'Freshdesk', 'Help Scout', 'Gorgias', 'Front', 'Drift'],
  Collaboration: [
    'Slack',
    'Microsoft Teams',
    'Zoom',
    'Google Workspace',
    'Microsoft 365',
    'Notion',
    'Confluence',
    'Miro',
    'Loom',
    'Dropbox',
    'Box',
  ],
  'Project Management': ['Jira', 'Asana', 'Monday.com', 'Trello', 'ClickUp', 'Linear', 'Smartsheet', 'Wrike'],
  'E-commerce': ['Shopify', 'Magento', 'WooCommerce', 'BigCommerce', 'Salesforce Commerce Cloud', 'commercetools'],
  Payments: ['Stripe', 'PayPal', 'Adyen', 'Braintree', 'Square', 'Chargebee', 'Recurly', 'Paddle'],
  CMS: [
    'WordPress',
    'Webflow',
    'Contentful',
    'Drupal',
    'Sanity',
    'Squarespace',
    'Wix',
    'Strapi',
    'Adobe Experience Manager',
  ],
  'Frontend Frameworks': ['React', 'Next.js', 'Vue.js', 'Angular', 'Svelte'],
  'HR and Recruiting': [
    'Workday',
    'BambooHR',
    'Greenhouse',
    'Lever',
    'Personio',
    'Rippling',
    'Gusto',
    'Deel',
    'Ashby',
    'Workable',
    'SmartRecruiters',
    'Recruitee',
  ],
  'Finance and ERP': [
    'NetSuite',
    'SAP S/4HANA',
    'QuickBooks',
    'Xero',
    'Sage Intacct',
    'Oracle ERP Cloud',
    'Bill.com',
    'Expensify',
    'Ramp',
  ],
  'Product Experience': ['Pendo', 'Optimizely', 'LaunchDarkly', 'Appcues', 'VWO', 'Userpilot'],
  'AI and Machine Learning': [
    'OpenAI',
    'Anthropic',
    'Hugging Face',
    'Amazon SageMaker',
    'Vertex AI',
    'Weights & Biases',
  ],
  'Customer Data Platform': ['mParticle', 'Hightouch', 'Census', 'Bloomreach'],
  'Sales Intelligence': ['ZoomInfo', 'LinkedIn Sales Navigator', 'Clearbit', 'Clay', '6sense', 'Demandbase', 'Bombora'],
  'Scheduling and Forms': ['Calendly', 'Typeform', 'Chili Piper', 'Jotform'],
  'E-signature': ['DocuSign', 'PandaDoc', 'Dropbox Sign'],
};

const TOOLS: readonly TechnographicTool[] = Object.freeze(
  Object.entries(CATALOGUE).flatMap(([category, names]) => names.map((name) => Object.freeze({ name, category }))),
);

const BY_LOWER_NAME: ReadonlyMap<string, TechnographicTool> = new Map(
  TOOLS.map((tool) => [tool.name.toLowerCase(), tool]),
);

/** Catalogue order (grouped by category); `search` is a case-insensitive substring of the name or category. */
export function listTechnographicTools(search?: string): TechnographicTool[] {
  const needle = search?.trim().toLowerCase();
  const tools = needle
    ? TOOLS.filter((tool) => tool.name.toLowerCase().includes(needle) || tool.category.toLowerCase().includes(needle))
    : TOOLS;
  return tools.map((tool) => ({ ...tool }));
}

/** Case-insensitive: tech stacks arrive from vendors with their own casing ("hubspot crm"). */
export function findTechnographicTool(name: string): TechnographicTool | undefined {
  const tool = BY_LOWER_NAME.get(name.trim().toLowerCase());
  return tool ? { ...tool } : undefined;
}

export function technographicCategories(): string[] {
  return Object.keys(CATALOGUE);
}
