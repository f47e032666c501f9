#!/usr/bin/env node
// Web check: the Tool Search settings card in DSH's real web UI, driven in headless Chromium.
//
// Installs DSH 0.1.0-rc.8 (e2e/lib/dsh-install.mjs), builds and packs this plugin (the
// TypeScript halves; its platform binary package comes as in the profile E2E, see
// e2e/lib/profile.mjs `packPlugin`) and adds the tarball to the `web` profile of a fresh
// DSH_HOME, starts
// `dsh web` on an OS-assigned loopback port, and drives Debian's Chromium with playwright-core:
// dismiss the first-run dialogs, open Settings > Plugins, find the Tool Search card, give
// web_search a policy (one list), move it to the other list (one write of both lists), change the
// result count and the loading mode (stable by default, with call_tool listed; native lets it
// go), reload, and find all of it again, on the page, in the catalog route and in settings.yaml. Then the same plugin in a second fresh DSH_HOME installed without its platform
// package (pnpm --no-optional): `dsh web` must still start, and the route, the card and dsh's
// standard error must say that tool_search is off and name the package to install.
// Screenshots and a JSON summary go to the artifacts folder; the summary is also printed. Exits 1
// if any check fails.
//
//   pnpm run test:web [--tarball <tgz>] [--out <dir>] [--chromium <path>] [--timeout <seconds>] [--keep]
//
// --tarball   an already packed plugin (also env DSH_TOOL_SEARCH_TARBALL); nothing is built
// --out       artifacts folder (also env DSH_WEB_ARTIFACTS; default artifacts/)
// --chromium  the browser (also env CHROMIUM_PATH; default /usr/bin/chromium, Debian's package)
// --keep      keep the scratch folder (DSH_HOME, tarballs, browser profile) for debugging
// Env DSH_E2E_CACHE: folder to keep the DSH install in between runs.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { chromium } from 'playwright-core'
import { parse as parseYaml } from 'yaml'
import { DSH_VERSION, HMR_PATCH, installDsh } from './lib/dsh-install.mjs'
import { killAll, onInterrupt, runOk, startGroup, stopGroup, tail } from './lib/processes.mjs'
import { installIntoProfile, nativeInstall, packPlugin, platformKey } from './lib/profile.mjs'

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const PROFILE = 'web'
const TOOL = 'web_search' // deferred by default in DSH's standard preset
const CATALOG_PATH = '/tool-search/catalog'
/** How long after loading the card says what the page lacks it (plugin/client/host-notice.ts, HOST_SETTLE_MS). */
const CARD_NOTICE_MS = 10_000
// What Debian's chromium needs here (the machine notes): no sandbox as root, no GPU, and none of
// Chromium's own network traffic, which this machine's closed network refuses.
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync']

const { values: options } = parseArgs({
  options: {
    tarball: { type: 'string', default: process.env.DSH_TOOL_SEARCH_TARBALL },
    out: { type: 'string', default: process.env.DSH_WEB_ARTIFACTS ?? join(REPO, 'artifacts') },
    chromium: { type: 'string', default: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
    timeout: { type: 'string', default: '300' },
    keep: { type: 'boolean', default: false },
  },
})
const deadlineMs = Number(options.timeout) * 1000
if (!(deadlineMs > 0)) fail(`--timeout must be a positive number of seconds, not ${options.timeout}`)

const root = mkdtempSync(join(tmpdir(), 'dsh-tool-search-web-'))
const artifacts = resolve(options.out)
mkdirSync(artifacts, { recursive: true })
const log = (message) => process.stderr.write(`[web-check] ${message}\n`)

const summary = { ok: false, dshVersion: DSH_VERSION, node: process.version, checks: [], timings: {}, artifacts: {} }
const started = performance.now()
let phaseStart = started
/** Record how long the phase that just ended took. */
function phase(name) {
  const now = performance.now()
  summary.timings[name] = Math.round(now - phaseStart)
  phaseStart = now
}
function check(name, pass, observed) {
  summary.checks.push({ name, pass: Boolean(pass), ...(observed === undefined ? {} : { observed }) })
  log(`${pass ? 'ok  ' : 'FAIL'} ${name}${pass || observed === undefined ? '' : `: ${JSON.stringify(observed)}`}`)
  return Boolean(pass)
}

let server
/** Every `dsh web` started, stopped at the end. */
const servers = []
let context
let finishing = false
async function cleanUp() {
  await context?.close().catch(() => undefined)
  for (const started of servers) await stopGroup(started.child)
  killAll()
  if (options.keep) log(`kept work folder ${root}`)
  else rmSync(root, { recursive: true, force: true, maxRetries: 3 })
}
onInterrupt(cleanUp, log)

const watchdog = setTimeout(() => {
  log(`gave up after ${options.timeout} s`)
  summary.error = `timed out after ${options.timeout} s`
  void finish(1)
}, deadlineMs)

try {
  await main()
  summary.ok = summary.checks.every((entry) => entry.pass)
} catch (error) {
  summary.error = error.message
  log(`error: ${error.stack ?? error.message}`)
}
await finish(summary.ok ? 0 : 1)

async function finish(code) {
  if (finishing) return
  finishing = true
  clearTimeout(watchdog)
  summary.timings.total = Math.round(performance.now() - started)
  summary.failed = summary.checks.filter((entry) => !entry.pass).map((entry) => entry.name)
  if (server) summary.dshWeb = { stderr: tail(server.stderr(), 20) }
  writeFileSync(join(artifacts, 'web-check.json'), JSON.stringify(summary, null, 2) + '\n')
  process.stdout.write(JSON.stringify(summary, null, 2) + '\n')
  await cleanUp()
  process.exit(code)
}

async function main() {
  if (!existsSync(options.chromium)) throw new Error(`no browser at ${options.chromium}; install Debian's chromium (apt-get install -y chromium) or pass --chromium`)
  const cache = process.env.DSH_E2E_CACHE
  const dsh = await installDsh(cache ? join(resolve(cache), `dsh-${DSH_VERSION}`) : join(root, 'dsh'))
  summary.dsh = { dir: dsh.dir, reusedCache: dsh.reused }
  phase('installDsh')

  const home = join(root, 'home')
  const env = { ...process.env, DSH_HOME: home, DSH_TELEMETRY_DISABLED: '1' }
  for (const name of ['DEEPSEEK_API_KEY', 'DEEPSEEK_BASE_URL', 'DSH_TOOLS_MODE']) delete env[name]
  const plugin = await installPlugin(dsh, env)
  phase('installPlugin')

  const hmrPatch = join(root, 'hmr-on.yml')
  writeFileSync(hmrPatch, HMR_PATCH)
  const workdir = join(root, 'work')
  mkdirSync(workdir)
  server = await startDshWeb(dsh.bin, ['--profile', PROFILE, '--patch', hmrPatch, '--no-open', '--port', '0'], { cwd: workdir, env })
  summary.url = server.url
  phase('startDshWeb')

  const catalog = await checkRoutes(server.url, plugin.name)
  phase('routes')

  context = await chromium.launchPersistentContext(join(root, 'chromium-profile'), {
    executablePath: options.chromium,
    headless: true,
    args: CHROMIUM_ARGS.filter((arg) => arg !== '--headless'), // playwright adds its own --headless
    viewport: { width: 1280, height: 1100 },
    locale: 'en-US',
  })
  summary.chromium = context.browser()?.version() ?? (await runOk(options.chromium, ['--version'])).stdout.trim()
  const page = context.pages()[0] ?? await context.newPage()
  const problems = watchProblems(page)
  const writes = watchSettingsWrites(page)
  phase('launchChromium')

  await page.goto(server.url)
  const pageOpened = performance.now()
  check('the first-run dialogs can be dismissed', (await dismissOnboarding(page)).length > 0, summary.onboarding)
  const card = await openCard(page, { settings: 'Settings', plugins: 'Plugins', title: 'Tool Search' })
  if (!check('Settings > Plugins shows the Tool Search card, which discloses its controls', card, summary.cards)) return
  const rows = page.locator('tbody tr')
  await rows.first().waitFor()
  check('the card\'s table lists every tool the catalog route lists', await rows.count() === catalog.total, { rows: await rows.count(), route: catalog.total })
  check(`${TOOL} starts deferred`, await rowPolicy(page, TOOL) === 'deferred')
  phase('openCard')

  const policy = page.getByRole('combobox', { name: `Policy for ${TOOL}` })
  await policy.selectOption('always')
  check(`choosing "Always visible" for ${TOOL} shows it as always visible`, await waitFor(async () => await rowPolicy(page, TOOL) === 'always'))
  check('settings.yaml lists it in alwaysVisible', await waitFor(() => sameJson(storedSection(home)?.alwaysVisible, [TOOL])), storedSection(home))

  writes.length = 0
  await policy.selectOption('never')
  check(`moving ${TOOL} to "Never search" shows it as blocked`, await waitFor(async () => await rowPolicy(page, TOOL) === 'never'))
  check('the move is one settings write of both lists', writes.length === 1 && sameJson(writes[0]?.ops.map((op) => op.path[0]), ['alwaysVisible', 'neverSearch']), writes)
  check('settings.yaml has it in neverSearch and no longer in alwaysVisible',
    await waitFor(() => sameJson(storedSection(home)?.alwaysVisible, []) && sameJson(storedSection(home)?.neverSearch, [TOOL])), storedSection(home))

  const count = page.getByRole('textbox', { name: 'Results per search' })
  await count.fill('21')
  check('a result count of 21 is refused on the page', await count.getAttribute('aria-invalid') === 'true' && await page.getByText('Enter a whole number from 1 to 20.').isVisible())
  await count.fill('7')
  await count.press('Enter')
  check('settings.yaml has the result count 7', await waitFor(() => storedSection(home)?.defaultLimit === 7), storedSection(home))
  const defer = page.getByRole('combobox', { name: 'Defer tools' })
  await defer.selectOption('auto')
  check('settings.yaml has defer: auto', await waitFor(() => storedSection(home)?.defer === 'auto'), storedSection(home))
  const loading = page.getByRole('combobox', { name: 'Loading found tools' })
  check('found tools load stable by default, through call_tool, which the route lists as always offered',
    await loading.inputValue() === 'stable' && catalog.tools.find((row) => row.name === 'call_tool')?.policy === 'search',
    { loading: await loading.inputValue(), callTool: catalog.tools.find((row) => row.name === 'call_tool') })
  await loading.selectOption('native')
  check('settings.yaml has loading: native', await waitFor(() => storedSection(home)?.loading === 'native'), storedSection(home))
  check('the running plugin lets call_tool go under native loading', await waitFor(async () => !(await getCatalog(server.url)).tools.some((row) => row.name === 'call_tool')))
  const kept = page.getByRole('textbox', { name: 'Most tools kept per agent' })
  await kept.fill('1001')
  check('a limit of 1001 tools is refused on the page', await kept.getAttribute('aria-invalid') === 'true')
  await kept.fill('3')
  await kept.press('Enter')
  check('settings.yaml has maxSelected 3', await waitFor(() => storedSection(home)?.maxSelected === 3), storedSection(home))
  phase('edit')

  const live = await getCatalog(server.url)
  check(`the running plugin applies the change: the route reports ${TOOL} as never`, live.tools.find((row) => row.name === TOOL)?.policy === 'never')

  await page.reload()
  summary.onboardingAfterReload = await dismissOnboarding(page)
  check('after a reload the card is found again', await openCard(page, { settings: 'Settings', plugins: 'Plugins', title: 'Tool Search' }))
  await rows.first().waitFor()
  check('after a reload the result count is 7', await count.inputValue() === '7')
  check('after a reload deferral is automatic, loading native and at most 3 tools are kept',
    await defer.inputValue() === 'auto' && await loading.inputValue() === 'native' && await kept.inputValue() === '3')
  check(`after a reload ${TOOL} is blocked and its policy control says "Never search"`,
    await rowPolicy(page, TOOL) === 'never' && await page.getByRole('combobox', { name: `Policy for ${TOOL}` }).inputValue() === 'never')
  check(`after a reload the Never search list shows ${TOOL}`, await page.getByRole('list', { name: 'Never search' }).getByText(TOOL, { exact: true }).isVisible())
  check('settings.yaml holds exactly what was set', sameJson(storedSection(home), { alwaysVisible: [], neverSearch: [TOOL], defaultLimit: 7, defer: 'auto', loading: 'native', maxSelected: 3 }), storedSection(home))
  phase('reload')

  // A filter keeps the table short enough to fit beside the rest of the card in one picture.
  await page.getByRole('searchbox', { name: 'Filter tools' }).fill('web')
  await waitFor(async () => await rows.count() < catalog.total)
  summary.artifacts.screenshot = await shoot(page, 'web-check.png', 'Tool Search')
  phase('screenshot')

  // A phone: the settings modal keeps its navigation, which leaves the card ~130 px.
  await page.setViewportSize({ width: 420, height: 900 })
  await page.waitForTimeout(800)
  const overflow = await page.locator('li.dts-card').evaluate((element) => element.scrollWidth - element.clientWidth)
  check('at 420 px wide the card needs no horizontal scrolling', overflow <= 0, { overflowPx: overflow })
  summary.artifacts.narrow = await shoot(page, 'web-check-narrow.png', 'Tool Search')

  const zh = await context.newPage()
  await zh.setViewportSize({ width: 1280, height: 1100 })
  await zh.route('**/*', (route) => route.continue({ headers: { ...route.request().headers(), 'accept-language': 'zh-CN,zh;q=0.9' } }))
  await zh.addInitScript(() => {
    Object.defineProperty(navigator, 'language', { get: () => 'zh-CN' })
    Object.defineProperty(navigator, 'languages', { get: () => ['zh-CN', 'zh'] })
  })
  await zh.goto(server.url)
  await dismissOnboarding(zh)
  check('in Chinese the card reads 工具搜索 with its Chinese copy', await openCard(zh, { settings: '设置', plugins: '插件', title: '工具搜索' })
    && await zh.getByRole('textbox', { name: '每次搜索的结果数' }).isVisible())
  summary.artifacts.chinese = await shoot(zh, 'web-check-zh.png', '工具搜索')
  phase('layoutAndLocale')

  // The card logs a line when the page offers it no settings service or no slot, once it has
  // waited for them (HOST_SETTLE_MS in plugin/client/host-notice.ts): read the console after that.
  await new Promise((done) => { setTimeout(done, Math.max(0, CARD_NOTICE_MS + 1_000 - (performance.now() - pageOpened))) })
  check('the page logged no errors, no crashed slot entry and no line from the card', problems.length === 0, problems)

  if (plugin.native.name) await checkWithoutBinary(dsh, plugin, hmrPatch)
  phase('withoutBinary')
}

/**
 * The plugin in a fresh web profile without its platform package: `dsh web` starts, the catalog
 * route says why tool_search is off, the card shows it, and dsh's stderr says it once.
 */
async function checkWithoutBinary(dsh, plugin, hmrPatch) {
  const home = join(root, 'home-without-binary')
  const env = { ...process.env, DSH_HOME: home, DSH_TELEMETRY_DISABLED: '1' }
  for (const name of ['DEEPSEEK_API_KEY', 'DEEPSEEK_BASE_URL', 'DSH_TOOLS_MODE']) delete env[name]
  const nativeName = `${plugin.name}-${platformKey()}`
  const spec = `${nativeName}@${plugin.version}`
  await installIntoProfile(dsh, env, [plugin], PROFILE, { optional: false })
  check(`without the platform package: ${nativeName} is not installed (pnpm --no-optional)`, !nativeInstall(env, plugin.name, nativeName, PROFILE).installed)
  const workdir = join(root, 'work-without-binary')
  mkdirSync(workdir)
  let web
  try {
    web = await startDshWeb(dsh.bin, ['--profile', PROFILE, '--patch', hmrPatch, '--no-open', '--port', '0'], { cwd: workdir, env })
  } catch (error) {
    check('without the platform package: dsh web starts and serves', false, error.message)
    return
  }
  check('without the platform package: dsh web starts and serves', true)
  const catalog = await getCatalog(web.url)
  check(`without the platform package: the catalog route says tool_search is off and names ${spec}`,
    catalog.searchUnavailable?.includes(`whose core is the package ${spec}`) && catalog.total > 20, { searchUnavailable: catalog.searchUnavailable, total: catalog.total })
  const said = web.stderr().split('\n').filter((line) => line.startsWith('dsh-tool-search: '))
  check('without the platform package: dsh web\'s stderr says so once, naming the package and its install command',
    said.length === 1 && said[0].includes(spec) && said[0].includes(`dsh plugin --profile ${PROFILE} add ${spec}`), said)

  const page = await context.newPage()
  const problems = watchProblems(page)
  await page.goto(web.url)
  await dismissOnboarding(page)
  const opened = await openCard(page, { settings: 'Settings', plugins: 'Plugins', title: 'Tool Search' })
  const notice = page.getByRole('alert').filter({ hasText: 'tool_search is off, so the model is offered every tool.' })
  check('without the platform package: the card shows that tool_search is off and the plugin\'s message naming the package',
    opened && await waitFor(async () => await notice.count() === 1 && (await notice.innerText()).includes(spec)), opened ? await notice.allInnerTexts() : summary.cards)
  await page.locator('tbody tr').first().waitFor().catch(() => undefined)
  check('without the platform package: the card still lists the tools', await page.locator('tbody tr').count() === catalog.total, { rows: await page.locator('tbody tr').count(), route: catalog.total })
  summary.artifacts.withoutBinary = await shoot(page, 'web-check-without-binary.png', 'Tool Search')
  check('without the platform package: the page logged no errors and no crashed slot entry', problems.length === 0, problems)
  await page.close()
}

/**
 * Pack the plugin (or take --tarball) and add it to the web profile the way a user does. Until the
 * platform packages are on the registry, the local npm/<platform> package stands in for the one
 * this machine needs: pinned in the profile when the plugin names it as an optional dependency,
 * else added beside the plugin.
 */
async function installPlugin(dsh, env) {
  const packs = join(root, 'packs')
  mkdirSync(packs)
  if (!options.tarball) {
    // What gets packed is dist/, so it must be built from the sources being checked.
    await runOk('pnpm', ['run', 'build:plugin'], { cwd: REPO, timeoutMs: 300_000 })
    await runOk('pnpm', ['run', 'build:client'], { cwd: REPO, timeoutMs: 300_000 })
    phase('build')
  }
  const plugin = await packPlugin(REPO, packs, options.tarball ? resolve(options.tarball) : undefined)
  summary.plugin = { name: plugin.name, version: plugin.version, tarball: plugin.tarball, native: plugin.native.source }
  if (!check('the plugin tarball carries the client bundle', plugin.files.includes('dist/client.js'), plugin.files.filter((file) => file.startsWith('dist/')).slice(0, 20))) {
    throw new Error(`${plugin.tarball} lacks dist/client.js; run \`pnpm run build\` before packing`)
  }
  const { bundles } = await installIntoProfile(dsh, env, [plugin], PROFILE)
  check(`the web profile lists ${plugin.name} as a bundle`, bundles.includes(plugin.name), bundles)
  return plugin
}

/** Start `dsh web` in its own process group and wait for the URL it prints. */
function startDshWeb(bin, args, { cwd, env }) {
  const child = startGroup(bin, args, { cwd, env })
  servers.push({ child })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8')
  child.stderr.setEncoding('utf8').on('data', (text) => { stderr += text })
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`dsh web printed no URL within 60 s:\n${tail(stderr || stdout)}`)), 60_000)
    child.stdout.on('data', (text) => {
      stdout += text
      const match = /dsh web: (http:\/\/\S+)/.exec(stdout)
      if (match) {
        clearTimeout(timer)
        resolvePromise({ child, url: match[1].replace(/\/$/, ''), stderr: () => stderr })
      }
    })
    child.on('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`dsh web exited (${code ?? signal}) before serving:\n${tail(stderr || stdout)}`))
    })
  })
}

/** The plugin's own routes on the running server, checked over plain HTTP. */
async function checkRoutes(url, packageName) {
  const response = await fetch(`${url}${CATALOG_PATH}`)
  const catalog = await response.json().catch(() => undefined)
  check('GET /tool-search/catalog answers JSON with Cache-Control: no-store', response.status === 200
    && response.headers.get('content-type')?.startsWith('application/json') && response.headers.get('cache-control') === 'no-store',
  { status: response.status, contentType: response.headers.get('content-type'), cacheControl: response.headers.get('cache-control') })
  check('the catalog lists the default preset\'s tools, not an empty global layer', catalog?.total > 20 && catalog.tools.some((row) => row.name === TOOL), { total: catalog?.total })
  const post = await fetch(`${url}${CATALOG_PATH}`, { method: 'POST' })
  check('POST /tool-search/catalog is refused with 405 and Allow: GET', post.status === 405 && post.headers.get('allow') === 'GET', { status: post.status, allow: post.headers.get('allow') })
  const client = await fetch(`${url}/plugins/${packageName}/client.js`)
  const text = await client.text()
  check('dsh web serves the client bundle in the module-loader format', client.status === 200 && text.startsWith('window.__ModuleLoader__.load({'), { status: client.status, start: text.slice(0, 40) })
  summary.catalog = { total: catalog?.total, agents: catalog?.agents, truncated: catalog?.truncated }
  return catalog
}

async function getCatalog(url) {
  return (await fetch(`${url}${CATALOG_PATH}`)).json()
}

/**
 * Click through whatever first-run dialog stands in front of the app: the internal testing notice
 * ("Continue") and, with no model key configured, the API key prompt ("Configure later").
 * @returns the buttons clicked.
 */
async function dismissOnboarding(page) {
  const clicked = []
  const button = page.getByRole('dialog').getByRole('button', { name: /^(Continue|继续|Configure later|稍后配置)$/ })
  // The dialogs mount after the app boots; give them a moment, and stop once none is left.
  await page.getByRole('button', { name: /^(Settings|设置)$/ }).first().waitFor({ state: 'attached', timeout: 30_000 })
  for (let quiet = 0; quiet < 3;) {
    if (await button.count() > 0) {
      const name = await button.first().innerText()
      await button.first().click()
      clicked.push(name)
      quiet = 0
    } else {
      quiet += 1
    }
    await page.waitForTimeout(400)
  }
  summary.onboarding ??= clicked
  return clicked
}

/** Settings > Plugins > Plugin configuration, then expand the card. */
async function openCard(page, names) {
  await page.getByRole('button', { name: names.settings, exact: true }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByText(names.plugins, { exact: true }).first().click()
  const header = dialog.getByRole('button', { name: new RegExp(names.title) })
  try {
    await header.waitFor({ timeout: 15_000 })
  } catch {
    summary.cards = await dialog.locator('li button[aria-expanded]').allInnerTexts()
    return false
  }
  await header.click()
  return await header.getAttribute('aria-expanded') === 'true'
}

async function rowPolicy(page, tool) {
  return page.locator(`tr[data-tool="${tool}"]`).getAttribute('data-policy', { timeout: 5_000 }).catch(() => undefined)
}

/**
 * Page errors, console errors, DSH's report of a crashed slot entry, and any line of the card's own
 * (it logs only what a page fails to offer it).
 */
function watchProblems(page) {
  const problems = []
  page.on('pageerror', (error) => { problems.push(`pageerror: ${error.message}`) })
  page.on('console', (message) => {
    const text = message.text()
    if (message.type() === 'error' || /slot entry crashed|Failed to load plugins|^dsh-tool-search:/.test(text)) problems.push(`${message.type()}: ${text}`)
  })
  return problems
}

/** The body of every settings.mutate request the page sends. */
function watchSettingsWrites(page) {
  const writes = []
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/settings.mutate') {
      const body = request.postDataJSON()
      writes.push(body.payload ?? body)
    }
  })
  return writes
}

/** The `tool-search:` section of $DSH_HOME/settings.yaml. */
function storedSection(home) {
  const file = join(home, 'settings.yaml')
  return existsSync(file) ? parseYaml(readFileSync(file, 'utf8'))?.['tool-search'] : undefined
}

/** A screenshot of the page with the card's header at the top of the settings modal. */
async function shoot(page, name, title) {
  await page.getByRole('button', { name: new RegExp(title) }).evaluate((header) => { header.scrollIntoView({ block: 'start' }) })
  await page.waitForTimeout(300)
  const file = join(artifacts, name)
  await page.screenshot({ path: file })
  return file
}

async function waitFor(condition, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs
  for (;;) {
    if (await condition()) return true
    if (Date.now() > until) return false
    await new Promise((resolveWait) => setTimeout(resolveWait, 100))
  }
}

function sameJson(a, b) {
  return JSON.stringify(a) === JSON.stringify(b)
}

function fail(message) {
  process.stderr.write(`web-check: ${message}\n`)
  process.exit(2)
}
