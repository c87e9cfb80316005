import type { IndexedDocument } from '../../platform/retrieval/vector-search';
import type { BlogPost } from '../blog/reader';
import type { Spot } from '../spots/reader';
import type { TrickipediaEntry } from '../trickipedia/reader';

// What the vector index holds of each riding document (read by its domain's reader): the text embedded and what
// queries filter on.

export const trickDocument = (entry: TrickipediaEntry): IndexedDocument => ({
  id: entry._id,
  text: [entry.name, entry.aliases.join(', '), entry.description].filter(Boolean).join('. '),
  metadata: { kind: 'trick', sport: entry.sport },
});

export const blogDocument = (post: BlogPost): IndexedDocument => ({
  id: post._id,
  text: [post.title, post.excerpt, post.body].filter(Boolean).join('. '),
  metadata: { kind: 'blog' },
});

export const spotDocument = (spot: Spot): IndexedDocument => ({
  id: spot._id,
  text: [spot.name, spot.description, spot.city, spot.country].filter(Boolean).join('. '),
  metadata: { kind: 'spot' },
});
