import type { ReadTerm } from './reader';

export const termView = (term: ReadTerm) => ({
  _id: term._id.toHexString(),
  term: term.term,
  kind: term.kind,
  match: term.match,
  createdAt: term.createdAt.toISOString(),
});
