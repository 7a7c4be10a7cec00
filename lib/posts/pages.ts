// Page-based pagination of contract section 5 (explore, a user's posts).
import * as z from 'zod/mini';
import { intParam } from '../fields';

// Any page a JSON number holds exactly: one past the end is an empty page, not an error.
export const pageQuery = () => z.strictObject({ page: intParam(1, Number.MAX_SAFE_INTEGER, 1), limit: intParam(1, 50, 10) });

/**
 * Pages whose first item lies this deep start reading only once the total says they are not
 * past the end: a made-up page number never makes a request read a whole index for nothing.
 * Shallower pages read beside the total (one round trip fewer).
 */
export const EAGER_DEPTH = 500;

/** Index of the page's first item, and how many items up to its last. */
export const pageWindow = (page: number, limit: number) => ({ skip: (page - 1) * limit, need: page * limit });

export interface PagePagination {
  currentPage: number;
  totalPages: number;
  totalPosts: number;
  hasNextPage: boolean;
  hasPrevPage: boolean;
}

export function pagination(page: number, limit: number, totalPosts: number): PagePagination {
  const totalPages = Math.ceil(totalPosts / limit);
  return { currentPage: page, totalPages, totalPosts, hasNextPage: page < totalPages, hasPrevPage: page > 1 };
}
