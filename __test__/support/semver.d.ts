// The one function of `semver` (7.8.6, a dev dependency) the peer-range test calls; the package
// ships no types. Its signature as semver's README documents it.
declare module 'semver' {
  export function satisfies(version: string, range: string, options?: { includePrerelease?: boolean }): boolean
}
