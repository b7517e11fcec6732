import { parseFields, type FieldSelection } from "./fields";
import { parseFilter, type FilterExpr } from "./filter";
import { LruCache } from "./lru";
import { parseSort, type SortKey } from "./sort";

/** Distinct query strings kept per option; clients repeat a handful of them. */
export const QUERY_CACHE_SIZE = 500;

const filters = new LruCache<FilterExpr>(QUERY_CACHE_SIZE);
const fieldLists = new LruCache<FieldSelection[]>(QUERY_CACHE_SIZE);
const sortLists = new LruCache<SortKey[]>(QUERY_CACHE_SIZE);

/**
 * Cached parsers: the same text returns the same (shared) result, so callers
 * must not mutate it. Errors are not cached: they throw each time.
 */
export const parseFilterCached = (text: string): FilterExpr => filters.getOrCompute(text, parseFilter);
export const parseFieldsCached = (text: string): FieldSelection[] => fieldLists.getOrCompute(text, parseFields);
export const parseSortCached = (text: string): SortKey[] => sortLists.getOrCompute(text, parseSort);
