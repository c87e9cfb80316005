import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { unsupportedNode } from '../../../scripts/supported-node.mjs';

const range = JSON.parse(readFileSync('package.json', 'utf8')).engines.node as string;

describe('the supported Node lines', () => {
  it('refuses Node 20 with one line naming the range and what to do', () => {
    const message = unsupportedNode('v20.20.2', range);
    expect(message).toContain('Node v20.20.2 cannot run this project');
    expect(message).toContain(range);
    expect(message).toContain('Node 24');
    expect(message).not.toContain('\n');
  });

  it('refuses Node 22 before 22.12, which wrangler and miniflare do not run on', () => {
    expect(unsupportedNode('v22.11.0', range)).toBeDefined();
  });

  it('admits the maintained lines 22, 24 and 26', () => {
    for (const version of ['v22.12.0', 'v24.22.3', 'v26.12.1']) expect(unsupportedNode(version, range)).toBeUndefined();
  });

  it('admits the Node the tests run under, the one npm ci installs', () => {
    expect(process.versions.node.split('.')[0]).toBe('24');
    expect(unsupportedNode(process.version, range)).toBeUndefined();
  });
});

describe('the voice box image', () => {
  it('is built from a Node its own engines and the project admit, on the slim image', () => {
    const from = /^FROM node:(\d+)-slim$/m.exec(readFileSync('voice-node/Dockerfile', 'utf8'));
    expect(from).not.toBeNull();
    const voiceEngines = JSON.parse(readFileSync('voice-node/package.json', 'utf8')).engines.node as string;
    expect(unsupportedNode(`v${from![1]}.0.0`, voiceEngines)).toBeUndefined();
    expect(unsupportedNode(`v${from![1]}.0.0`, range)).toBeUndefined();
  });
});
