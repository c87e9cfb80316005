import type { Refusals } from '../../platform/http/refusals';

/** Every refusal of the blog routes: the service's outcomes that are not a post, and drafts asked for without admin. */
export const BLOG_REFUSALS: Refusals<'not-found' | 'slug-taken' | 'drafts-admin-only'> = {
  'not-found': { status: 404, message: 'Blog post not found.' },
  'slug-taken': { status: 409, message: 'A blog post with this slug already exists.' },
  'drafts-admin-only': { status: 403, message: 'Only admins see drafts: send an admin token in x-auth-token.' },
};
