import type { TestProject } from 'vitest/node';
import { startDevDb } from '../../devdb/src/server';
import { startSpareDevDb } from './spare-devdb';
import { startStandIns } from './stand-ins/server';

declare module 'vitest' {
  export interface ProvidedContext {
    mongoUri: string;
    standInsUrl: string;
    /** A dev database only test/worker/platform/db-access.test.ts uses, and the URL that stops and starts it. */
    spareMongoUri: string;
    spareDevDbControl: string;
  }
}

/**
 * Starts what the Worker under test talks to: the dev database (unless MONGODB_URI points
 * at a real server) and the stand-ins for outside services.
 */
export default async function setup(project: TestProject) {
  const external = process.env.MONGODB_URI;
  const devdb = external ? undefined : await startDevDb({ port: 0, quiet: true });
  const standIns = await startStandIns();
  const spare = await startSpareDevDb();
  project.provide('spareMongoUri', spare.uri);
  project.provide('spareDevDbControl', spare.control);
  project.provide('mongoUri', external ?? devdb!.uri);
  project.provide('standInsUrl', standIns.url);
  return async () => {
    await standIns.close();
    await spare.close();
    await devdb?.close();
  };
}
