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
  const contact = { SOURCES_CONTACT_EMAIL: 'ops@leads.example.com', SIGN_UP: 'closed' };
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

test('in production open sign-up needs SMTP_URL and MAIL_FROM (it mails a link); closed sign-up needs neither', () => {
  const production = {
    ...base,
    NODE_ENV: 'production',
    PUBLIC_URL: 'https://leads.example.com',
    SOURCES_CONTACT_EMAIL: 'ops@leads.example.com',
  };
  // Sign-up is open unless said otherwise: refused, naming both variables and the way out.
  expect(() => loadConfig(production)).toThrow(
    /^invalid configuration: SMTP_URL: required when NODE_ENV=production and SIGN_UP=open .*SIGN_UP=closed; MAIL_FROM: required/,
  );
  expect(() => loadConfig({ ...production, SMTP_URL: 'smtp://mail.example.com' })).toThrow(/MAIL_FROM: required/);
  const mailing = loadConfig({
    ...production,
    SMTP_URL: 'smtps://relay:secret@mail.example.com:465',
    MAIL_FROM: 'Intent leads <ops@leads.example.com>',
  });
  expect(mailing).toMatchObject({ SIGN_UP: 'open', SMTP_URL: 'smtps://relay:secret@mail.example.com:465' });
  const closed = loadConfig({ ...production, SIGN_UP: 'closed' });
  expect([closed.SIGN_UP, closed.SMTP_URL]).toEqual(['closed', undefined]);
  // Outside production the log stands in for a mail server.
  const development = loadConfig({ ...base, NODE_ENV: 'development' });
  expect([development.SIGN_UP, development.SMTP_URL]).toEqual(['open', undefined]);
  // Nonsense is refused in any mode.
  expect(() => loadConfig({ ...base, SMTP_URL: 'http://mail.example.com' })).toThrow(
    /^invalid configuration: SMTP_URL: /,
  );
  expect(() => loadConfig({ ...base, MAIL_FROM: 'not an address' })).toThrow(/^invalid configuration: MAIL_FROM: /);
  expect(() => loadConfig({ ...base, SIGN_UP: 'maybe' })).toThrow(/^invalid configuration: SIGN_UP: /);
});
