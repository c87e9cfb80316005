import { ApiError } from '../../platform/http/errors';

/** A blog-service outcome that is not a post, as the HTTP error a route answers with. */
export function refusal(outcome: 'not-found' | 'slug-taken'): ApiError {
  if (outcome === 'not-found') return new ApiError(404, 'Blog post not found.');
  return new ApiError(409, 'A blog post with this slug already exists.');
}

export const draftsAreAdminOnly = () =>
  new ApiError(403, 'Only admins see drafts: send an admin token in x-auth-token.');
