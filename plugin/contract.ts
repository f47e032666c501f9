/**
 * The rules the plugin host, the web card and the command line share: names, limits, the order
 * names sort in, the catalog route's wire shape and the settings section's fields.
 *
 * Dependency-free by design (nothing but type-only imports): the browser bundle imports it from
 * source, the host from source, and the plain-JavaScript command line from the built
 * `dist/contract.js`. A rule written here once cannot drift between the three. The Rust core
 * reads the names and bounds it shares with them from here too (`build.rs` lists them: the search
 * tool's name, the model package, two bounds, and the session log's names, the payload's fields
 * that replay reads among them), so each of those is written as `export const NAME = value` on
 * one line, a whole number or a plain single-quoted string.
 */

/** The plugin's name and its profile row id (`cordis.patch.yml`); DSH 0.1.7+ addresses the row's settings form by it. */
export const PLUGIN_ID = 'dsh-tool-search'

/** The npm package, as DSH's web server serves its client and the Plugin Manager keys its slots. */
export const PACKAGE_NAME = '@anionex/dsh-tool-search'

/** The one tool this plugin adds; it is always offered and can never be blocked. */
export const TOOL_SEARCH_NAME = 'tool_search'

/**
 * The tool that runs a found tool under `loading: stable`, where found tools never join the
 * request's `tools`. Registered only in that mode, and offered with `tool_search`.
 */
export const CALL_TOOL_NAME = 'call_tool'

/**
 * The `loading` a new install runs. `stable` keeps the request's tools (and with them DeepSeek's
 * cached prompt prefix) unchanged by searches; change this one line to ship `native` instead.
 */
export const DEFAULT_LOADING = 'stable'

/**
 * Longest `arguments` `call_tool` passes on, in characters of their JSON: far above any real tool
 * call, low enough that a runaway payload is refused before it reaches a tool.
 */
export const MAX_CALL_ARGUMENTS_CHARS = 1_000_000

/**
 * The package that carries the semantic model hybrid ranking embeds with: an optional dependency
 * beside the platform packages, resolved by the addon's entry (index.js, through the addon's
 * `MODEL_PACKAGE`, which is this one). `model/package.json` names it; a test holds the two equal.
 */
export const MODEL_PACKAGE = '@anionex/dsh-tool-search-model'

/** The settings namespace the plugin owns (`tool-search:` in `$DSH_HOME/settings.yaml`). */
export const SETTINGS_NAMESPACE = 'tool-search'

/** Longest query, in characters (code points) after trimming; the native index enforces this bound too. */
export const MAX_QUERY_CHARS = 4096

/**
 * Longest tool name, in UTF-8 bytes, the native index takes where it is handed names (an exclude
 * list); src/limits.rs reads it from here. A catalog may hold longer names, and searches return
 * them, but they cannot be excluded.
 */
export const MAX_NAME_BYTES = 1024

/** Fewest results a single search may ask for. */
export const MIN_LIMIT = 1
/** Most results a single search may ask for (and the largest configurable default). */
export const MAX_LIMIT = 20

/**
 * The order every list of tool names is kept in: JavaScript's string order (by UTF-16 code unit),
 * so the result never depends on the machine's locale. Tool names are identifiers; for them it is
 * code-point order, which it differs from only where a name mixes characters beyond U+FFFF with
 * ones from U+E000 to U+FFFF.
 */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** Whether two name lists hold the same names in the same order. */
export function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, i) => name === b[i])
}

// ---- The session log: what the plugin writes into it and what replay reads back ---------------
// src/replay.rs reads these from here too (build.rs); each is one line, as above.

/** The `tool_search` payload's version; replay reads this one. Bumped only with a change replay must tell apart. */
export const PAYLOAD_SCHEMA_VERSION = 1
/** The payload field that holds {@link PAYLOAD_SCHEMA_VERSION}: a payload without it selects nothing. */
export const VERSION_FIELD = 'schemaVersion'
/** The payload field that lists the found tools, each an object whose {@link TOOL_NAME_FIELD} selects it. */
export const TOOLS_FIELD = 'tools'
/** A found tool's name, in each object of {@link TOOLS_FIELD}. */
export const TOOL_NAME_FIELD = 'name'
/** The payload field, `true` only, of a `discover:` search: it shows tools and selects none. */
export const DISCOVER_FIELD = 'discover'

/**
 * How the call ids of the plugin's own selection records begin: a record's root call id is
 * `<RECORD_ID_PREFIX><kind>:<key>` (selection/record.ts), its kind one of the `*_RECORD` below.
 */
export const RECORD_ID_PREFIX = 'dsh-tool-search:'
/** A prefetch record: the plugin found these tools for a user's message before the model asked. */
export const PREFETCH_RECORD = 'prefetch'
/** An eviction record (`maxSelected`): its payload drops the names under {@link DESELECT_FIELD}. */
export const EVICT_RECORD = 'evict'
/** A recall record: the model called a tool an eviction dropped, which selects it again. */
export const RECALL_RECORD = 'recall'
/** The payload field, in eviction records only, that lists the names leaving the selection. */
export const DESELECT_FIELD = 'deselect'

/** A model-direct call: `{callId, name, arguments}`. */
export const TOOL_CALL_EVENT = 'tool/call'
/**
 * A model-direct call's result: `{message: {content: [{type: 'tool-result', toolCallId, isError?, content}]}}`
 * up to session format v3, `{message: {role: 'tool', toolCallId, isError?, content}}` from v4 (DSH 0.1.7).
 */
export const TOOL_RESULT_EVENT = 'tool/result'
/** A call made inside Code Mode's `run_code`, and a selection record, settled, up to session format v2. */
export const CODE_DISPATCH_EVENT = 'tool/code-dispatch'
/** Its start, which every settle must follow (the v3 and v4 readers refuse a settle without one). */
export const CODE_DISPATCH_START_EVENT = 'tool/code-dispatch-start'
/** The settle from session format v3 (DSH 0.1.5), which renamed Code Mode PTC. */
export const PTC_DISPATCH_EVENT = 'tool/ptc-dispatch'
/** Its start from session format v3. */
export const PTC_DISPATCH_START_EVENT = 'tool/ptc-dispatch-start'
/** The session events replay reads; the rest never cross to the core. */
export const REPLAYED_EVENTS: readonly string[] = [TOOL_CALL_EVENT, TOOL_RESULT_EVENT, CODE_DISPATCH_EVENT, PTC_DISPATCH_EVENT]

// ---- The catalog route: `GET /tool-search/catalog[?filter=text]` --------------------------------

/** Where the route is mounted on DSH's web server. */
export const CATALOG_ROUTE_PATH = '/tool-search/catalog'

/** Most rows one response carries. */
export const CATALOG_MAX_ROWS = 500

/** Descriptions are cut to this many characters: the table shows one line of each. */
export const CATALOG_DESCRIPTION_CHARS = 160

/** Longest `filter` the route accepts; a tool name is at most 64 characters. */
export const CATALOG_MAX_FILTER_CHARS = 200

/**
 * Longest tool name the catalog lists. DSH accepts any name, but no model API takes one over 64
 * characters; a longer one is left out (counted in `total`, so `truncated` says so) rather than
 * cut, since the page sets policies by exact name.
 */
export const CATALOG_MAX_NAME_CHARS = 256

/** Why a tool is or is not offered before any search, in precedence order. */
export type StandingPolicy =
  | 'search' // tool_search itself: always offered
  | 'never' // neverSearch: hidden and unsearchable, wins over everything below
  | 'core' // the default core set
  | 'always' // alwaysVisible
  | 'deferred' // registered and searchable, offered once a search finds it

/** One registered tool, as the settings page lists it. */
export interface CatalogRow {
  readonly name: string
  readonly description: string
  /** The rule that decides its visibility before any search. */
  readonly policy: StandingPolicy
  /** How many attached Agents have selected it with tool_search. */
  readonly selectedBy: number
}

/** Most Agents one catalog response lists by name (`agentSelections`). */
export const CATALOG_MAX_AGENTS = 50

/** Most found tool names one Agent's entry lists (`found`); `selected` counts them all. */
export const CATALOG_MAX_FOUND = 20

/** One live Agent's selection (unnamed: the route never carries session ids). */
export interface AgentSelection {
  /** Tools its searches and prefetches selected. */
  readonly selected: number
  /** Of those, the ones a prefetch selected. */
  readonly prefetched: number
  /** How its found tools load: `native` (in the request's tools) or `stable` (through call_tool). */
  readonly loading?: 'native' | 'stable'
  /** The first {@link CATALOG_MAX_FOUND} names it found, sorted by {@link compareNames}. */
  readonly found?: readonly string[]
  /** Its last request's offered schemas (and Code Mode SDK), in estimated tokens. */
  readonly offeredTokens?: number
  /** What offering every registered tool would weigh instead, in estimated tokens. */
  readonly allTokens?: number
  /**
   * How often its offered tools changed after its first request: each change ends the cached
   * prompt prefix and bills the conversation again uncached.
   */
  readonly cacheBreaks?: number
}

/** The response body of a successful catalog request. */
export interface CatalogResponse {
  readonly schemaVersion: 1
  /** Live Agents the plugin tracks (the denominator of `selectedBy`). */
  readonly agents: number
  /** The first {@link CATALOG_MAX_AGENTS} of them, in attach order. */
  readonly agentSelections?: readonly AgentSelection[]
  /** Tools matching the filter, before the row cap. */
  readonly total: number
  /** Whether `tools` stops short of `total`. */
  readonly truncated: boolean
  readonly tools: readonly CatalogRow[]
  /**
   * Present while `tool_search` is off, so every tool is offered: the plugin's logged reason (its
   * native core did not load, or another plugin owns the name).
   */
  readonly searchUnavailable?: string
}

// ---- The settings section -------------------------------------------------------------------

/** A whole-number setting from `min` to `max`. */
export interface NumberSetting {
  readonly kind: 'number'
  readonly default: number
  readonly min: number
  readonly max: number
  /** The schema's description (DSH shows it beside the raw setting). */
  readonly description: string
}

/** A list of exact tool names, trimmed, de-duplicated and kept in {@link compareNames} order. */
export interface NamesSetting {
  readonly kind: 'names'
  readonly default: readonly string[]
  readonly description: string
}

/** One word out of a fixed list. */
export interface ChoiceSetting {
  readonly kind: 'choice'
  readonly default: string
  /** Every allowed value, in the order the card lists them. */
  readonly choices: readonly string[]
  readonly description: string
}

export type SettingField = NumberSetting | NamesSetting | ChoiceSetting

/**
 * Every field of the `tool-search` section. The host's schema (config.ts) and normalization, the
 * card's controls and the command line's defaults are all read from here; the card shows the
 * number and choice fields in this order.
 */
export const SETTINGS = {
  /** Results `tool_search` returns when the model omits `limit`. */
  defaultLimit: {
    kind: 'number',
    default: 5,
    min: MIN_LIMIT,
    max: MAX_LIMIT,
    description: 'Tools returned by one tool_search call when the model does not pass a limit (1-20).',
  },
  /** Deferred tools loaded for each user message before the model's first step on it. */
  prefetch: {
    kind: 'number',
    default: 0,
    min: 0,
    max: 10,
    description: 'Deferred tools loaded for each new user message before the model sees it, found with the message as the query (0-10; 0 turns prefetch off).',
  },
  /**
   * How tool_search ranks: `auto` fuses BM25F with the semantic model when the model package is
   * installed (lexical otherwise); `lexical` is BM25F alone.
   */
  ranking: {
    kind: 'choice',
    default: 'auto',
    choices: ['auto', 'lexical'],
    description: `auto: BM25F fused with the semantic model (the optional package ${MODEL_PACKAGE}) when it is installed, BM25F alone otherwise. lexical: BM25F alone.`,
  },
  /**
   * Whether tools are deferred whatever the catalog (`always`), or only while the deferred
   * schemas are large enough for deferral to pay (`auto`, see `autoMinTokens`).
   */
  defer: {
    kind: 'choice',
    default: 'always',
    choices: ['always', 'auto'],
    description: 'always: defer every tool that is not core or always-visible. auto: defer only while the deferred tools\' schemas exceed autoMinTokens; below it every tool is offered and tool_search is not. Switches at a new user message.',
  },
  /**
   * Under `defer: auto`, the estimated o200k tokens the deferred schemas must exceed together for
   * deferral to start. The default is where the benchmark's cost model has deferral pay for itself
   * in a 50-step session (docs/benchmark.md, "Cost with prompt caching").
   */
  autoMinTokens: {
    kind: 'number',
    default: 70_000,
    min: 0,
    max: 10_000_000,
    description: 'With defer: auto, tools are deferred only while the deferred schemas together exceed this many tokens (estimated).',
  },
  /**
   * The most tools an Agent's selection keeps; past it the least recently used leave at the next
   * user message. 0 keeps every tool found: each eviction bills the cached conversation again,
   * which the benchmark's cost model finds costs more than the schemas it drops save.
   */
  maxSelected: {
    kind: 'number',
    default: 0,
    min: 0,
    max: 1000,
    description: 'The most tools one agent keeps selected; past it the least recently used leave at the next user message. 0: no limit.',
  },
  /**
   * How found tools become callable: `native` adds their schemas to the request's `tools`;
   * `stable` returns their definitions in the search result and runs them through `call_tool`,
   * so the tools (and the cached prompt prefix) stay the same for an Agent's life.
   */
  loading: {
    kind: 'choice',
    default: DEFAULT_LOADING,
    choices: ['native', 'stable'],
    description: 'native: a found tool\'s schema joins the request\'s tools from the next step (each search that loads tools ends the cached prompt prefix). stable: the request\'s tools never change; tool_search returns the found tools\' definitions and the model runs them with call_tool.',
  },
  /** Exact tool names offered on every request even though they are not core tools. */
  alwaysVisible: {
    kind: 'names',
    default: [],
    description: 'Exact tool names always offered to the model, in addition to the core tools.',
  },
  /** Exact tool names never offered and never searchable; wins over every other list. */
  neverSearch: {
    kind: 'names',
    default: [],
    description: 'Exact tool names never offered and never found by tool_search. Wins over always-visible.',
  },
} as const satisfies Record<string, SettingField>

export type SettingKey = keyof typeof SETTINGS

/** The keys of the fields of one kind. */
export type KeyOfKind<Kind extends SettingField['kind']> = {
  [K in SettingKey]: (typeof SETTINGS)[K]['kind'] extends Kind ? K : never
}[SettingKey]

export type NumberKey = KeyOfKind<'number'>
export type NamesKey = KeyOfKind<'names'>
export type ChoiceKey = KeyOfKind<'choice'>
/** The fields the card edits with one control each. */
export type ScalarKey = NumberKey | ChoiceKey

/** The values a choice field allows. */
export type ChoiceOf<K extends ChoiceKey> = (typeof SETTINGS)[K]['choices'][number]

/** The whole section with every field present, as the schema resolves it. */
export type SettingsSection = {
  readonly [K in SettingKey]: K extends ChoiceKey ? ChoiceOf<K> : (typeof SETTINGS)[K] extends NumberSetting ? number : readonly string[]
}

/** Every field, in {@link SETTINGS} order. */
export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[]

/** The number and choice fields, in {@link SETTINGS} order. */
export const SCALAR_SETTINGS = SETTING_KEYS.filter((key): key is ScalarKey => SETTINGS[key].kind !== 'names')

/** Whether a field is a choice field. */
export function isChoiceKey(key: SettingKey): key is ChoiceKey {
  return SETTINGS[key].kind === 'choice'
}

/** Whether `value` is a whole number within the field's bounds. */
export function inBounds(field: NumberSetting, value: number): boolean {
  return Number.isSafeInteger(value) && value >= field.min && value <= field.max
}
