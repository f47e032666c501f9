/**
 * An entry's inject face as DSH's renderer hands it to the component (rc.8
 * `dsh-client-ui-renderer`, `bindInjectHooks`): each source of the `hooks` compartment becomes
 * the selector hook `use<Name>`, every other member passes through. The renderer binds with
 * `useSyncExternalStoreWithSelector`; React's own `useSyncExternalStore` reads the same snapshots.
 */

import { useSyncExternalStore } from 'react'
import type { HostObservable, InjectFace } from '../../../plugin/client/host.ts'

export function bindInjectFace<I extends { hooks: Record<string, HostObservable<unknown>> }>(face: I): InjectFace<I> {
  const { hooks, ...rest } = face
  const bound: Record<string, unknown> = { ...rest }
  for (const [name, source] of Object.entries(hooks)) {
    bound[`use${name.charAt(0).toUpperCase()}${name.slice(1)}`] = <S>(select: (snapshot: unknown) => S): S =>
      // oxlint-disable-next-line typescript/unbound-method -- a bare source, bound to the hook as DSH's renderer binds it
      select(useSyncExternalStore(source.subscribe, source.getSnapshot))
  }
  return bound as InjectFace<I>
}
