import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Google's and Apple's key endpoints, as the Worker fetches them: `GET /jwks/<set>` answers
 * a JSON Web Key Set. Tests generate their own RS256 keys and publish the public halves
 * with `PUT /jwks/<set>`, each under a set name of their own.
 */
export function createJwksHandler() {
  const sets = new Map<string, string>();
  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> => {
    const match = /^\/jwks\/([\w.-]+)$/.exec(path);
    if (!match) return false;
    const name = match[1]!;
    if (req.method === 'PUT') {
      let body = '';
      for await (const chunk of req) body += chunk;
      sets.set(name, body);
      res.writeHead(204).end();
      return true;
    }
    const keys = sets.get(name);
    if (!keys) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such key set"}');
      return true;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'public, max-age=3600' }).end(keys);
    return true;
  };
}
