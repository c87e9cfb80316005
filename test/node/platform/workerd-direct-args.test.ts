import { describe, expect, it } from 'vitest';
import { directArguments, printsAt } from '../../../scripts/workerd-direct-args';

describe('the arguments of the runner without wrangler proxy', () => {
  it('reads the wrangler dev arguments the local stack passes, a setting value holding colons included', () => {
    const args = directArguments([
      'dev',
      '--ip',
      '127.0.0.1',
      '--port',
      '8799',
      '--persist-to',
      '/tmp/state',
      '--var',
      'MONGODB_URI:mongodb://127.0.0.1:27018/rider',
      '--var',
      'JWT_SECRET:s',
      '--test-scheduled',
      '--inspector-port',
      '9799',
    ]);
    expect(args).toEqual({
      host: '127.0.0.1',
      port: 8799,
      persistTo: '/tmp/state',
      inspectorPort: 9799,
      logLevel: 'info',
      metrics: 'stand-in',
      vars: { MONGODB_URI: 'mongodb://127.0.0.1:27018/rider', JWT_SECRET: 's' },
    });
  });

  it("takes wrangler's log level, so that a bench can turn off the per-request log", () => {
    expect(directArguments(['--log-level', 'warn']).logLevel).toBe('warn');
    expect(() => directArguments(['--log-level', 'loud'])).toThrow('--log-level takes one of none, error, warn');
  });

  it("prints the Worker's console lines as wrangler's level would: below info only its warnings and errors", () => {
    for (const line of ['log', 'info', 'debug']) {
      expect(printsAt('info', line)).toBe(true);
      expect(printsAt('debug', line)).toBe(true);
      expect(printsAt('warn', line)).toBe(false);
    }
    expect(printsAt('warn', 'warn')).toBe(true);
    expect(printsAt('warn', 'error')).toBe(true);
    expect(printsAt('error', 'warn')).toBe(false);
    expect(printsAt('error', 'error')).toBe(true);
    expect(printsAt('none', 'error')).toBe(false);
  });

  it('keeps the metrics in the local stand-in unless told to discard them, as a bench of the request cost is', () => {
    expect(directArguments(['--metrics', 'discard']).metrics).toBe('discard');
    expect(() => directArguments(['--metrics', 'keep'])).toThrow('--metrics takes one of stand-in, discard');
  });

  it('refuses an option it would otherwise ignore, and a flag without its value', () => {
    expect(() => directArguments(['--local-protocol', 'https'])).toThrow('--local-protocol is not an option');
    expect(() => directArguments(['--port'])).toThrow('--port needs a value');
    expect(() => directArguments(['--var', 'NOCOLON'])).toThrow('--var takes NAME:VALUE');
  });
});
