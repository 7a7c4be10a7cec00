// Contract section 12: media that no post or profile uses are deleted 24 hours after their
// upload was issued. The bucket's lifecycle rule removes the images tagged "unused" and the
// raw uploads; this covers what it cannot: a creation that re-tagged a media's images "used"
// (lib/media/use.ts markObjectsUsed, before its transaction) and then failed leaves the media
// untaken, so its item keeps its TTL while its images no longer match the rule. When DynamoDB's
// TTL removes the item, its images go here, whatever their tags. Only an untaken media has a
// TTL (taking one removes it), and deleting an object already gone changes nothing, so a record
// that comes again is harmless.
import { typeOf, type Change, type Reaction } from '../events/changes';
import { deleteObjects } from './storage';

export const mediaReactions: Reaction[] = [
  {
    name: 'media-expired',
    matches: (c: Change) => c.event === 'REMOVE' && c.byTtl && typeOf(c) === 'MEDIA' && !c.oldImage?.usedBy,
    run: async ({ oldImage }) => {
      const objects = (oldImage?.objectKeys ?? []) as Iterable<string>;
      await deleteObjects([...objects].map(String));
    },
  },
];
