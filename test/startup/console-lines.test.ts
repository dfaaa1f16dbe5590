import { consoleLineOf } from '../../scripts/process-tree';

/** What `npm start` shows on the console of a child's log line (the rest stays in its log file). */
describe('the console line of a log line', () => {
  it('shows warnings and worse in words, with the error the line carries', () => {
    expect(consoleLineOf('{"level":40,"time":1,"msg":"slow source"}')).toBe('WARN slow source');
    expect(consoleLineOf('{"level":50,"msg":"delivery failed","err":{"message":"ECONNREFUSED"}}')).toBe(
      'ERROR delivery failed: ECONNREFUSED',
    );
    expect(consoleLineOf('{"level":60,"msg":"out of memory"}')).toBe('FATAL out of memory');
  });

  it('keeps information and debug lines off the console', () => {
    expect(consoleLineOf('{"level":30,"msg":"signal evaluated"}')).toBeUndefined();
    expect(consoleLineOf('{"level":20,"msg":"detail"}')).toBeUndefined();
    expect(consoleLineOf('   ')).toBeUndefined();
  });

  it('shows what is not a JSON log line as it is (a crash, a library printing to stdout)', () => {
    expect(consoleLineOf('TypeError: x is not a function')).toBe('TypeError: x is not a function');
    expect(consoleLineOf('[1,2]')).toBe('[1,2]');
    expect(consoleLineOf('{"level":"warn"')).toBe('{"level":"warn"');
  });
});
