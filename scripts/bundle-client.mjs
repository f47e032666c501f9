#!/usr/bin/env node
// Bundles the browser half (plugin/client) into dist/client.js in the format DSH's client module
// loader runs: one lazy CommonJS closure handed to the page's loader,
//
//   window.__ModuleLoader__.load({ id: "<package name>", factory: (require) => { ...; return module.exports } })
//
// DSH builds its own bundles with an unpublished tsdown preset (packages/client/tsdown.client.ts);
// this reproduces its output with esbuild. The modules DSH shares with plugins (React, cordis, the
// slot and primitive packages) come from the loader's `require`; everything else, CSS included, is
// inlined, and the build fails if the bundle would ask the loader for anything else.
//
// The result is a plain classic script whose only top-level statement is that call: DSH 0.1.0-rc.8
// serves it alone, DSH 0.1.7 concatenates several plugins' bundles into one combo script
// (`<bundle>;` per plugin, its own trailing source-map comment removed), where a top-level
// declaration could collide with a neighbour's and a neighbour's "use strict" applies to all.
//
//   node scripts/bundle-client.mjs [--out <file>]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { build, transform } from 'esbuild'

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const ENTRY = join(REPO, 'plugin', 'client', 'index.ts')

// The module table entries DSH answers a plugin bundle's `require` with in every release read:
// 0.1.0-rc.8's web shell (/work/shared/DSH-web.md) and 0.1.5-rc.2's (zsagi1368/deepseek-harness-zDSH
// packages/client/web/src/seed.ts@85e854eadfe808b1d9b9df7e55e210747c8b8dc6; 0.1.7's is not public).
// rc.8 also answered `@deepseek-ai/dsh-client-runtime/client` as a loaded row, which 0.1.7's page
// no longer loads (packages/bundle/web-app/cordis.patch.yml@a18d8a996c0e6a0f28f0d65d21966ed46039515e),
// so it is left out. Any other bare import would throw "missed the module table".
const PLATFORM_MODULES = [
  'react',
  'react/jsx-runtime',
  'react-dom',
  'react-dom/client',
  '@deepseek-ai/cordis',
  '@deepseek-ai/dsh-client-ui-slots',
  '@deepseek-ai/dsh-client-ui-primitives',
]

const { values: options } = parseArgs({ options: { out: { type: 'string', default: join(REPO, 'dist', 'client.js') } } })
const { name: id } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'))

/**
 * Each imported stylesheet becomes a module that adds one tagged <style> to the page when the
 * factory runs, once per page however often the bundle loads (DSH's own bundles do the same).
 */
const inlineCss = {
  name: 'inline-css',
  setup(builder) {
    builder.onLoad({ filter: /\.css$/ }, async ({ path }) => {
      const { code: css } = await transform(readFileSync(path, 'utf8'), { loader: 'css', minify: true, target: 'chrome111' })
      const tag = `${id}/${relative(join(REPO, 'plugin', 'client'), path)}`
      return {
        loader: 'js',
        contents: [
          `const css = ${JSON.stringify(css.trim())};`,
          `const tagId = ${JSON.stringify(tag)};`,
          'if (typeof document !== "undefined" && document.querySelector("style[data-plugin-css=" + JSON.stringify(tagId) + "]") === null) {',
          '  const tag = document.createElement("style");',
          `  tag.dataset.plugin = ${JSON.stringify(id)};`,
          '  tag.dataset.pluginCss = tagId;',
          '  tag.textContent = css;',
          '  document.head.appendChild(tag);',
          '}',
        ].join('\n'),
      }
    })
  },
}

const started = performance.now()
const result = await build({
  entryPoints: [ENTRY],
  bundle: true,
  write: false,
  format: 'cjs',
  platform: 'browser',
  target: 'es2022',
  jsx: 'automatic',
  external: PLATFORM_MODULES,
  plugins: [inlineCss],
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"' },
})

const [output] = result.outputFiles
const requested = Object.values(result.metafile.outputs).flatMap((file) => file.imports.filter((entry) => entry.external).map((entry) => entry.path))
const foreign = [...new Set(requested)].filter((path) => !PLATFORM_MODULES.includes(path))
if (foreign.length > 0) throw new Error(`the client bundle would require modules DSH's loader does not provide: ${foreign.join(', ')}`)
if (/\bimport\.meta\b|^\s*(import|export)\s/m.test(output.text)) throw new Error('the client bundle still contains ESM syntax')

// esbuild opens CommonJS output with "use strict", which inside the factory would be a stray
// expression rather than a directive.
const indented = output.text.replace(/^"use strict";\n/, '').trimEnd().split('\n').map((line) => (line === '' ? line : `    ${line}`)).join('\n')
const bundle = `window.__ModuleLoader__.load({
  id: ${JSON.stringify(id)},
  factory: (require) => {
    var module = { exports: {} };
    var exports = module.exports;
${indented}
    return module.exports;
  }
});
`
mkdirSync(dirname(options.out), { recursive: true })
writeFileSync(options.out, bundle)
const shared = [...new Set(requested)].sort()
process.stderr.write(`bundle-client: ${relative(REPO, options.out)} (${bundle.length} bytes; from the loader: ${shared.join(', ')}) in ${Math.round(performance.now() - started)} ms\n`)
