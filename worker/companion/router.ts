import type { AppEnv } from '../platform/app-env';
import { createRouter } from '../platform/http/openapi';
import { companionChatRoutes } from './chat/routes';
import { voiceRoutes } from './voice/routes';

/** The companion: its chat, and the voice box it speaks through. */
export const companionRoutes = createRouter<AppEnv>().route('/api', companionChatRoutes).route('/', voiceRoutes);
