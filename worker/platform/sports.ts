/** The sports a rider's content is filed under (the interface spec: skateboarding, snowboarding, BMX, wakeboarding). */
export const SPORTS = ['skateboarding', 'snowboarding', 'bmx', 'wakeboarding'] as const;

/** ISO 3166-1 alpha-2 codes officially assigned (249), for the `country` of spots and stays. */
export const COUNTRY_CODES = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
    'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO ' +
    'FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE ' +
    'JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO ' +
    'MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW ' +
    'PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM ' +
    'TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
  ).split(' '),
);

/** The sports an event is filed under: the rider sports plus skiing, which winter events carry (the interface spec, "Normalization rules"). */
export const EVENT_SPORTS = [...SPORTS, 'skiing'] as const;
export type EventSport = (typeof EVENT_SPORTS)[number];

/** Participation intents an event offers (the interface spec, "Event (Planned target model)"). */
export const EVENT_INTENTS = ['compete', 'spectate_in_person', 'spectate_online'] as const;
export type EventIntent = (typeof EVENT_INTENTS)[number];

/** Who may enter an event, as the second event source's connector infers it (the interface spec). */
export const EVENT_LEVELS = ['open', 'invite-only'] as const;
export type EventLevel = (typeof EVENT_LEVELS)[number];

/** U.S. state, district and territory codes: "City, ST" in upstream event locations means the U.S. */
export const US_STATE_CODES = new Set(
  (
    'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK ' +
    'OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC PR GU VI AS MP'
  ).split(' '),
);

/** `participation.registrationStatus` values the events list filters on (the interface spec's Planned participation). */
export const REGISTRATION_STATUSES = ['open', 'closed', 'upcoming'] as const;
