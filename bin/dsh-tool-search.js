#!/usr/bin/env node
// dsh-tool-search: search, explain and lint a tool catalog with the plugin's own ranking.
import { main } from './cli/main.js'

// A reader that stops early (`| head`) is not an error.
process.stdout.on('error', error => { if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EPIPE') throw error })

const { stdout, stderr, code } = main(process.argv.slice(2))
if (stdout !== undefined) process.stdout.write(`${stdout}\n`)
if (stderr !== undefined) process.stderr.write(`${stderr}\n`)
process.exitCode = code
