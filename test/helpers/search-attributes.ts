import type { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { ALL_SEARCH_ATTRIBUTES } from '../../workflows/search-attributes';

/** Registers Sentinel's search attributes on a test server's namespace (the dev server gets them at start). */
export async function registerSearchAttributes(connection: Connection, namespace = 'default'): Promise<void> {
  const keyword = temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(ALL_SEARCH_ATTRIBUTES.map((key) => [key.name, keyword])),
  });
}
