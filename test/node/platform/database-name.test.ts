import { describe, expect, it } from 'vitest';
import { DEFAULT_DATABASE, databaseName, uriHosts, withDatabase } from '../../../worker/platform/db/database-name';

describe('databaseName: the URI path, else MONGODB_DB, else rider', () => {
  it.each([
    ['mongodb://127.0.0.1:27018/mydb', 'other', 'mydb'],
    ['mongodb://127.0.0.1:27018/mydb?retryWrites=true', undefined, 'mydb'],
    ['mongodb+srv://user:p%40ss@cluster0.example.net/prod?w=majority', 'other', 'prod'],
    ['mongodb://u:pw@h1:27017,h2:27017/app?replicaSet=rs0', undefined, 'app'],
    ['mongodb://127.0.0.1:27018/my%2Ddb', undefined, 'my-db'],
    ['mongodb://127.0.0.1:27018', 'configured', 'configured'],
    ['mongodb://127.0.0.1:27018/', 'configured', 'configured'],
    ['mongodb://127.0.0.1:27018/?directConnection=true', ' configured ', 'configured'],
    ['mongodb://127.0.0.1:27018', undefined, DEFAULT_DATABASE],
    ['mongodb://127.0.0.1:27018', '  ', DEFAULT_DATABASE],
    [undefined, 'configured', 'configured'],
    [undefined, undefined, 'rider'],
  ])('%s with MONGODB_DB=%s uses %s', (uri, configured, expected) => {
    expect(databaseName(uri, configured)).toBe(expected);
  });

  it.each([
    ['mongodb://u:pw@h/admin', undefined, /MONGODB_URI names MongoDB's system database "admin".*authSource=admin/],
    ['mongodb://h', 'local', /MONGODB_DB names MongoDB's system database "local"/],
  ])('refuses a system database: %s with MONGODB_DB=%s', (uri, configured, message) => {
    expect(() => databaseName(uri, configured)).toThrow(message);
  });

  it('does not mistake a slash in the options for a path', () => {
    expect(databaseName('mongodb://h/?authSource=admin&appName=a/b', undefined)).toBe('rider');
  });
});

describe('withDatabase', () => {
  it('sets or replaces the path and keeps credentials, hosts and options', () => {
    expect(withDatabase('mongodb://127.0.0.1:1234', 't_a')).toBe('mongodb://127.0.0.1:1234/t_a');
    expect(withDatabase('mongodb://u:pw@h1,h2/old?replicaSet=rs0', 't_b')).toBe(
      'mongodb://u:pw@h1,h2/t_b?replicaSet=rs0',
    );
    expect(withDatabase('mongodb+srv://c.example.net/?w=majority', 'x')).toBe(
      'mongodb+srv://c.example.net/x?w=majority',
    );
  });

  it('round-trips through databaseName', () => {
    expect(databaseName(withDatabase('mongodb://h:1/a', 'b'), 'c')).toBe('b');
  });
});

describe('uriHosts', () => {
  it('drops scheme, credentials, path and options', () => {
    expect(uriHosts('mongodb://user:secret@h1:27017,h2:27017/db?x=1')).toBe('h1:27017,h2:27017');
    expect(uriHosts('mongodb://127.0.0.1:27018')).toBe('127.0.0.1:27018');
  });
});
