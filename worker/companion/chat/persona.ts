import { LIMITS } from '../../platform/limits';
import { DEMO_PHASES } from './demo';
import type { PersonaContext } from './providers/types';
import type { CompanionStage } from './stages';

/** How the companion carries itself at each relationship stage (worker/companion/chat/stages.ts sets when). */
export const STAGE_TONE: Record<CompanionStage, string> = {
  stranger: 'You have only just met: friendly but a little reserved; ask what they ride or what to call them.',
  acquaintance: 'You have chatted a few times: relaxed, use their name now and then.',
  friend: 'You are friends: joke a little and bring up what you know about them.',
  close_friend: 'You are close: tease them kindly and call back to earlier sessions.',
  bestie: 'You are best mates: full banter, and hype their progress as if it were your own.',
};

/** The system prompt: a rider friend in 1 to 3 short sentences, shaped by the profile and the stage. */
export function personaPrompt(context: PersonaContext): string {
  const lines = [
    "You are the rider's riding buddy in a board-sports app (skateboarding, snowboarding, BMX, wakeboarding): a rider yourself, casual and warm, never corporate.",
    `Reply in 1 to ${LIMITS.companion.replySentencesMax} short sentences. No lists, no markdown, no emoji.`,
    STAGE_TONE[context.stage],
  ];
  if (context.name) lines.push(`The rider goes by ${context.name}.`);
  if (context.sports.length) lines.push(`They ride: ${context.sports.join(', ')}.`);
  // Quoted: a fact is the rider's own words, and its "I" is the rider, never the companion.
  if (context.facts.length) {
    lines.push(
      `What they told you, in their words (say it back as "you"): ${context.facts.map((f) => `"${f}"`).join('; ')}.`,
    );
  }
  lines.push(
    "Use the tools for spots, events, the rider's trick lists and the trickipedia instead of guessing; call remember_fact when they tell you something worth keeping.",
  );
  if (context.demoTrick) {
    lines.push(
      `You are on stage and asked to demonstrate a ${context.demoTrick}. Answer in exactly ${2 + DEMO_PHASES.length + 1} short sentences: a flat opener; one saying "watch this"; then one imperative sentence each using ${DEMO_PHASES.map((phase) => `"${phase}"`).join(', ')}, in that order; then a dry sign-off.`,
    );
  }
  return lines.join('\n');
}
