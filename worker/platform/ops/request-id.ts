/**
 * A request's id: Cloudflare's `cf-ray` where the edge set it, so a client's `x-request-id` matches the ray id in
 * Cloudflare's own logs too; else a fresh one. Only a ray-shaped value is taken, so a client cannot write into logs.
 */
const RAY = /^[0-9a-f]{16}(-[A-Z]{3})?$/;

export function requestIdOf(request: Request): string {
  const ray = request.headers.get('cf-ray')?.trim();
  return ray && RAY.test(ray) ? ray : crypto.randomUUID();
}
