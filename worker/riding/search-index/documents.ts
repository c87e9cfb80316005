import type { IndexedDocument } from '../../platform/retrieval/vector-search';
import type { BlogPostDoc, SpotDoc, TrickipediaDoc } from '../documents';

// What the vector index holds of each riding document: the text embedded and what queries filter on.

export const trickDocument = (entry: TrickipediaDoc): IndexedDocument => ({
  id: entry._id,
  text: [entry.name, entry.aliases.join(', '), entry.description].filter(Boolean).join('. '),
  metadata: { kind: 'trick', sport: entry.sport },
});

export const blogDocument = (post: BlogPostDoc): IndexedDocument => ({
  id: post._id,
  text: [post.title, post.excerpt, post.body].filter(Boolean).join('. '),
  metadata: { kind: 'blog' },
});

export const spotDocument = (spot: SpotDoc): IndexedDocument => ({
  id: spot._id,
  text: [spot.name, spot.description, spot.city, spot.country].filter(Boolean).join('. '),
  metadata: { kind: 'spot' },
});
