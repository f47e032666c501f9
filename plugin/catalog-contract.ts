/**
 * What the catalog route and the web settings page agree on. Type-only imports and constants,
 * so the browser bundle can import it without pulling in host code.
 */

import type { CatalogRow } from './view.ts'

/** Where the route is mounted on DSH's web server. */
export const CATALOG_ROUTE_PATH = '/tool-search/catalog'

/** Most rows one response carries. */
export const CATALOG_MAX_ROWS = 500

/** Descriptions are cut to this many characters: the table shows one line of each. */
export const CATALOG_DESCRIPTION_CHARS = 160

/** The response body of a successful `GET /tool-search/catalog[?filter=text]`. */
export interface CatalogResponse {
  readonly schemaVersion: 1
  /** Live Agents the plugin tracks (the denominator of `selectedBy`). */
  readonly agents: number
  /** Tools matching the filter, before the row cap. */
  readonly total: number
  /** Whether `tools` stops short of `total`. */
  readonly truncated: boolean
  readonly tools: readonly CatalogRow[]
}
