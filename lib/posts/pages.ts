// Page-based pagination of contract section 5 (explore, a user's posts).
import * as z from 'zod/mini';
import { intParam } from '../fields';

export const pageQuery = () => z.strictObject({ page: intParam(1, 999_999, 1), limit: intParam(1, 50, 10) });

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
