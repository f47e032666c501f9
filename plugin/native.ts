/**
 * The one import site of the Rust core. `../index.js` is the napi-rs loader at the package root
 * (the package's `./native` export): it is one directory up both from `plugin/*.ts`, which the
 * tests run, and from the built `dist/*.js`, which the packed package ships, so the same specifier
 * works in the repository and after `npm pack` without a build-time rewrite.
 */

export { ToolIndex, namesTools, selectionFromEvents, selectionFromPayload } from '../index.js'
export type { CatalogOutline, OutlineGroup, SearchHit, SessionSelection } from '../index.js'
