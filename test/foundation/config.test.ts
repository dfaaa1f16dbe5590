import { loadConfig } from '../../src/config';
import { TEST_ADMIN_TOKEN } from '../setup/stack';

/** Settings that matter once the service faces the internet: its own address and whom to believe. */
const base = {
  DATABASE_URL: 'postgres://x/y',
  ADMIN_TOKEN: TEST_ADMIN_TOKEN,
  SECRETS_KEY: Buffer.alloc(32).toString('base64'),
};

test('in production PUBLIC_URL is required: without it the service refuses to start, naming it', () => {
  expect(() => loadConfig({ ...base, NODE_ENV: 'production' })).toThrow(
    /^invalid configuration: PUBLIC_URL: .*required when NODE_ENV=production/,
  );
  // Compose files pass an unset variable as empty: that is unset too.
  expect(() => loadConfig({ ...base, NODE_ENV: 'production', PUBLIC_URL: '' })).toThrow(/PUBLIC_URL/);
  expect(() => loadConfig({ ...base, NODE_ENV: 'production', PUBLIC_URL: 'leads.example.com' })).toThrow(/PUBLIC_URL/);
  const contact = { SOURCES_CONTACT_EMAIL: 'ops@leads.example.com' };
  expect(
    loadConfig({ ...base, ...contact, NODE_ENV: 'production', PUBLIC_URL: 'https://leads.example.com/' }).PUBLIC_URL,
  ).toBe('https://leads.example.com');
});

test('outside production PUBLIC_URL stays optional: each request says its own address', () => {
  expect(loadConfig({ ...base, NODE_ENV: 'development' }).PUBLIC_URL).toBeUndefined();
  expect(loadConfig({ ...base, NODE_ENV: 'test', PUBLIC_URL: '' }).PUBLIC_URL).toBeUndefined();
});

test('TRUST_PROXY_HOPS: 0 unless set (the socket is the client); a count of proxies; nonsense refused', () => {
  expect(loadConfig(base).TRUST_PROXY_HOPS).toBe(0);
  expect(loadConfig({ ...base, TRUST_PROXY_HOPS: '' }).TRUST_PROXY_HOPS).toBe(0);
  expect(loadConfig({ ...base, TRUST_PROXY_HOPS: '2' }).TRUST_PROXY_HOPS).toBe(2);
  for (const bad of ['-1', 'yes', '1.5', '100']) {
    expect(() => loadConfig({ ...base, TRUST_PROXY_HOPS: bad })).toThrow(/^invalid configuration: TRUST_PROXY_HOPS: /);
  }
});
