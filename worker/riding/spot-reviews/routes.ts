import { ObjectId } from 'mongodb';
import { publicUsers } from '../../accounts/users/service';
import { OBJECTIONABLE_TEXT, refuseObjectionable } from '../../moderation/word-filter/refuse';
import type { AppEnv } from '../../platform/app-env';
import { readEach } from '../../platform/db/stored-values';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { PageQuery } from '../../platform/http/pagination';
import { toReadPage } from '../../platform/http/read-pages';
import { refusal } from '../../platform/http/refusals';
import { auth } from '../../platform/middleware/auth';
import { callerOf } from '../../platform/tokens/service';
import { spotExists } from '../spots/service';
import { readSpotReview } from './reader';
import { REVIEW_REFUSALS } from './refusals';
import { DeletedReview, Review, ReviewBody, ReviewPage, ReviewParams, SpotParam } from './schema';
import { deleteReview, listReviews, putReview, ratingSummary } from './service';
import { reviewView } from './views';

const TAGS = ['spot reviews'];
const noSpot = errorResponse('No such spot');

const list = defineRoute({
  method: 'get',
  path: '/{spotId}/reviews',
  tags: TAGS,
  summary: "A spot's reviews, newest first, with its mean rating",
  request: { params: SpotParam, query: PageQuery },
  responses: { 200: jsonResponse(ReviewPage, 'A page of reviews'), 404: noSpot },
});

const put = defineRoute({
  method: 'post',
  path: '/{spotId}/reviews',
  tags: TAGS,
  summary: 'Review a spot (one review per rider: a second one replaces the first)',
  middleware: [auth()] as const,
  request: { params: SpotParam, ...jsonBody(ReviewBody) },
  responses: {
    201: jsonResponse(Review, 'Your first review of this spot'),
    200: jsonResponse(Review, 'Your review, replaced'),
    404: noSpot,
    ...OBJECTIONABLE_TEXT,
  },
});

const remove = defineRoute({
  method: 'delete',
  path: '/{spotId}/reviews/{reviewId}',
  tags: TAGS,
  summary: 'Delete a review (its author or an admin)',
  middleware: [auth()] as const,
  request: { params: ReviewParams },
  responses: {
    200: jsonResponse(DeletedReview, 'Deleted'),
    403: errorResponse('Not your review'),
    404: errorResponse('No such review on this spot'),
  },
});

async function existingSpot(c: { var: AppEnv['Variables'] }, spotId: string): Promise<ObjectId> {
  const id = new ObjectId(spotId);
  if (!(await spotExists(c.var.db, id))) throw refusal(REVIEW_REFUSALS, 'spot-not-found');
  return id;
}

/** Reviews of a spot, mounted under /api/spots. */
export const spotReviewRoutes = createRouter<AppEnv>()
  .openapi(list, async (c) => {
    const spotId = await existingSpot(c, c.req.valid('param').spotId);
    const query = c.req.valid('query');
    const [rows, summary] = await Promise.all([listReviews(c.var.db, spotId, query), ratingSummary(c.var.db, spotId)]);
    const reviews = readEach('spot_reviews', rows.slice(0, query.limit), readSpotReview);
    const authors = await publicUsers(
      c.var.db,
      reviews.flatMap((review) => review.userId ?? []),
    );
    const page = toReadPage('spot_reviews', rows, query.limit, (row) => {
      const review = readSpotReview(row);
      return review && reviewView(review, review.userId && authors.get(review.userId.toHexString()));
    });
    return c.json({ ...page, ...summary }, 200);
  })
  .openapi(put, async (c) => {
    const spotId = await existingSpot(c, c.req.valid('param').spotId);
    const userId = new ObjectId(c.var.user._id);
    const body = c.req.valid('json');
    await refuseObjectionable(c, { text: body.text });
    const { review, created } = await putReview(c.var.db, spotId, userId, body);
    const authors = await publicUsers(c.var.db, [userId]);
    return c.json(reviewView(review, authors.get(userId.toHexString())), created ? 201 : 200);
  })
  .openapi(remove, async (c) => {
    const { spotId, reviewId } = c.req.valid('param');
    const caller = callerOf(c.var.account);
    const outcome = await deleteReview(c.var.db, new ObjectId(spotId), new ObjectId(reviewId), caller);
    if (outcome !== 'deleted') throw refusal(REVIEW_REFUSALS, outcome);
    return c.json({ deleted: true as const, reviewId }, 200);
  });
