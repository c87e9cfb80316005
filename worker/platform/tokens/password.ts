import bcrypt from 'bcryptjs';
import { LIMITS } from '../limits';

export const hashPassword = (password: string) => bcrypt.hash(password, LIMITS.bcryptRounds);

// A well-formed hash of a random string: comparing against it when the email is unknown
// costs the same as a real comparison, so response time does not reveal which emails exist.
const DECOY_HASH = '$2b$10$CwTycUXWue0Thq9StjUM0uJ8.bXW1eYUD/7XqUkmQ4ZqVlW0m1O8W';

export function verifyPassword(password: string, hash: string | undefined): Promise<boolean> {
  return bcrypt.compare(password, hash ?? DECOY_HASH).then((ok) => ok && hash !== undefined);
}
