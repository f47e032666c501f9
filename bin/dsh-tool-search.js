#!/usr/bin/env node
// dsh-tool-search: search, explain and lint a tool catalog with the plugin's own ranking.

// The commands read the plugin's shared rules from its build (dist/), which a checkout has only
// after `pnpm run build`; say so instead of printing a module-resolution stack.
const { main } = await import('./cli/main.js').catch((/** @type {NodeJS.ErrnoException} */ error) => {
  if (error.code !== 'ERR_MODULE_NOT_FOUND' || !/[\\/]dist[\\/]/.test(error.message)) throw error
  process.stderr.write('dsh-tool-search: the plugin is not built (dist/ is missing); run `pnpm run build` in this checkout\n')
  process.exit(1)
})

// A reader that stops early (`| head`) is not an error.
process.stdout.on('error', error => { if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EPIPE') throw error })

const { stdout, stderr, code } = await main(process.argv.slice(2))
if (stdout !== undefined) process.stdout.write(`${stdout}\n`)
if (stderr !== undefined) process.stderr.write(`${stderr}\n`)
process.exitCode = code
