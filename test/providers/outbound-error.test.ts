import { classifyHttpStatus, OutboundHttpError, parseRetryAfter } from '../../src/providers/outbound-error';
import { redactUrl, scrub } from '../../src/providers/vendor-http';

const now = new Date('2025-06-01T12:00:00Z');

describe('classifyHttpStatus (contract section 6)', () => {
  it.each([200, 201, 204, 207])('%i is ok', (status) => {
    expect(classifyHttpStatus(status)).toEqual({ outcome: 'ok' });
  });

  it('429 retries after Retry-After seconds', () => {
    expect(classifyHttpStatus(429, '2', now)).toEqual({ outcome: 'retry', retryAfterSeconds: 2 });
  });

  it('429 without Retry-After waits 5 seconds', () => {
    expect(classifyHttpStatus(429, undefined, now)).toEqual({ outcome: 'retry', retryAfterSeconds: 5 });
  });

  it('429 waits at most one hour', () => {
    expect(classifyHttpStatus(429, '86400', now)).toEqual({ outcome: 'retry', retryAfterSeconds: 3600 });
  });

  it.each([500, 502, 503, 504])('%i is retried with back-off', (status) => {
    expect(classifyHttpStatus(status, '30', now)).toEqual({ outcome: 'retry' });
  });

  it.each([400, 401, 403, 404, 408, 409, 410, 422, 425, 301, 302, 304, 307])('%i is permanent', (status) => {
    expect(classifyHttpStatus(status)).toEqual({ outcome: 'permanent' });
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 17 ', now)).toBe(17);
    expect(parseRetryAfter(['3', '9'], now)).toBe(3);
  });

  it('reads an HTTP-date, rounding up', () => {
    expect(parseRetryAfter('Sun, 01 Jun 2025 12:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter(new Date(now.getTime() + 1500).toUTCString(), now)).toBe(1);
  });

  it("reads the JavaScript date form lemlist's docs show", () => {
    expect(parseRetryAfter('Sun Jun 01 2025 14:00:42 GMT+0200 (Central European Summer Time)', now)).toBe(42);
  });

  it('answers 0 for a date already past and caps a far date at an hour', () => {
    expect(parseRetryAfter('Sun, 01 Jun 2025 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('Mon, 02 Jun 2025 12:00:00 GMT', now)).toBe(3600);
  });

  it('falls back to 5 seconds when absent or unreadable', () => {
    for (const value of [undefined, null, '', '   ', 'soon', '-5', '1.5', []]) {
      expect(parseRetryAfter(value as string | undefined, now)).toBe(5);
    }
  });
});

describe('OutboundHttpError', () => {
  it('carries its classification', () => {
    const error = new OutboundHttpError('x', {
      vendor: 'lemlist',
      status: 429,
      retryAfterSeconds: 2,
      permanent: false,
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('OutboundHttpError');
    expect(error).toMatchObject({
      vendor: 'lemlist',
      status: 429,
      retryAfterSeconds: 2,
      permanent: false,
      retryable: true,
    });
  });
});

describe('credential redaction', () => {
  it('redacts key-bearing query parameters from URLs', () => {
    expect(redactUrl('https://server.smartlead.ai/api/v1/campaigns/?api_key=s3cr3t&x=1')).toBe(
      'https://server.smartlead.ai/api/v1/campaigns/?api_key=[redacted]&x=1',
    );
    expect(redactUrl(new URL('https://api.lemlist.com/api/team?access_token=abc'))).toBe(
      'https://api.lemlist.com/api/team?access_token=[redacted]',
    );
  });

  it('scrubs a known secret wherever it appears', () => {
    expect(scrub('token s3cr3t-value leaked', ['s3cr3t-value'])).toBe('token [redacted] leaked');
  });
});
