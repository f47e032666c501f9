/**
 * The tools offered to every Agent without a search.
 *
 * Chosen from what DSH 0.1.0-rc.8 registers (the headless profile offers 25 tools; the web profile
 * adds no model-facing tool to them) by one rule: a tool is core when a coding agent needs it on
 * nearly every turn, or when DSH itself tells the model to call it, because a tool the harness
 * demands but the model cannot see is a dead end. Everything else stays deferred and is one
 * `tool_search` away. Tool definitions carry no provenance, so this is a list of names; a
 * user adds more with `alwaysVisible`.
 */
export const DEFAULT_CORE_TOOLS: readonly string[] = [
  // Workspace I/O and the shell: the substance of almost every coding turn. `pwsh` is the
  // Windows build's shell (DSH mounts it instead of `bash` there).
  'bash', 'pwsh', 'read', 'write', 'edit', 'glob', 'grep',
  // Background jobs: `bash`/`pwsh` hand back a job id for long commands, and these are the only
  // way to read or stop that job, so hiding them strands work the model already started.
  'job_output', 'job_list', 'job_kill',
  // Planning: plan mode's prompt section requires `exit_plan_mode` (and points at
  // `ask_user_question`) to leave the mode; `todo_write` tracks every multi-step task.
  'todo_write', 'exit_plan_mode', 'ask_user_question',
  // Goals: the goal round driver asks the model to read and update the active goal each round.
  'get_goal', 'create_goal', 'update_goal',
  // Skills: the skill catalog in the prompt tells the model to load a skill through `skill`.
  'skill',
  // Delegation and its control plane. `report` and `structured_output` are registered into a
  // child Agent's own scope and are the only way that child can answer its parent.
  'subagent', 'subagent_fork', 'send_message', 'interrupt_agent', 'list_agents', 'report',
  'structured_output',
]

// Deliberately deferred although DSH registers them: `read_image` and `str_replace_editor`
// (occasional, and the second duplicates `edit`/`write`), `web_search`/`web_fetch` (a handful of
// turns per session), `ralph` and `workflow` (long descriptions, rare orchestration),
// `schedule_*` and `cordis_*` (administration), and every `mcp__<server>__<tool>`: MCP catalogs
// are the hundreds of schemas this plugin exists to keep out of the prompt.
