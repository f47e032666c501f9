/** Reading the plugin's catalog route from the page. */

import { CATALOG_ROUTE_PATH, type CatalogResponse } from '../contract.ts'

/** One catalog read; rejects with a short reason the page shows. */
export type FetchCatalog = (filter: string, signal: AbortSignal) => Promise<CatalogResponse>

/**
 * @param origin - where DSH's web server is; the page's own origin when empty.
 * @returns a reader of the catalog route.
 */
export function catalogFetcher(origin = ''): FetchCatalog {
  return async (filter, signal) => {
    const query = filter.trim() === '' ? '' : `?filter=${encodeURIComponent(filter.trim())}`
    const response = await fetch(`${origin}${CATALOG_ROUTE_PATH}${query}`, {
      signal,
      cache: 'no-store',
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
    })
    // DSH answers unknown paths with its app page (200, HTML): a host half without the route.
    if (!(response.headers.get('content-type') ?? '').includes('application/json')) {
      throw new Error(response.ok ? 'the plugin\'s catalog route is not mounted' : `HTTP ${response.status}`)
    }
    const body = await response.json() as CatalogResponse | { error?: string }
    if (!response.ok) throw new Error(`HTTP ${response.status}${'error' in body && body.error ? `: ${body.error}` : ''}`)
    return body as CatalogResponse
  }
}
