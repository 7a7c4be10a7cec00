// Import FIRST (before anything that loads lib/config): a low FANOUT_MAX_FOLLOWERS, so that a
// handful of followers makes an author a read-time author (contract section 11).
process.env.FANOUT_MAX_FOLLOWERS = '2';
