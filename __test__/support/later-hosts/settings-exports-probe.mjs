// The control of the module-load run (module-load.spec.ts): a module of the reshaped scope that
// imports what the plugin imported before it reached settings and ids through plugin/host/dsh/.
// Under the later releases' exports (settings-exports-hooks.mjs) it must fail to link.
import { installSettingsSection } from '@deepseek-ai/dsh-settings'
import { CallId } from '@deepseek-ai/dsh-llm'

export const linked = [installSettingsSection, CallId].every(value => typeof value === 'function')
