//! The stable diagnostic codes and their long explanations.
//!
//! A code never changes meaning once released: CI scripts and editors match on
//! it. `S0xx` framing and YAML, `S1xx` Agent Skills fields, `S2xx` extensions
//! and protocols, `S3xx` tools, schemas and endpoints, `S4xx` permissions,
//! `S5xx` discovery and limits, `Wxxx` warnings.

macro_rules! codes {
    ($($variant:ident = $id:literal, $title:literal, $example:literal, $fix:literal;)*) => {
        /// A stable diagnostic code.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum Code {
            $(#[doc = $title] $variant,)*
        }

        impl Code {
            /// Every code, in order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The code as printed: `S101`, `W001`, ...
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $id,)* }
            }

            /// A one-line summary of what the code means.
            pub fn title(self) -> &'static str {
                match self { $(Code::$variant => $title,)* }
            }

            /// A file that triggers the code (what the text of `explain` shows).
            pub fn example(self) -> &'static str {
                match self { $(Code::$variant => $example,)* }
            }

            /// How to fix it.
            pub fn fix(self) -> &'static str {
                match self { $(Code::$variant => $fix,)* }
            }
        }
    };
}

impl Code {
    /// Whether the code is a verdict on a skill's signature or the trust
    /// it is checked against (S524 to S528): what no `--force` overrides.
    pub fn is_trust(self) -> bool {
        matches!(
            self,
            Code::SignatureTampered
                | Code::SignatureUntrusted
                | Code::SignatureMalformed
                | Code::Unsigned
                | Code::TrustAnchor
        )
    }
}

codes! {
    NotUtf8 = "S001", "the file is not valid UTF-8",
        "a SKILL.md saved as Latin-1: `description: caf\\xe9`",
        "Re-save the file as UTF-8. The diagnostic gives the byte offset of the first invalid sequence.";
    MissingFrontmatter = "S002", "the file does not start with a `---` frontmatter fence",
        "# My skill\n\nDo things.",
        "Start the file with a line `---`, the YAML fields, and a closing `---` line.";
    UnclosedFrontmatter = "S003", "the frontmatter fence is never closed",
        "---\nname: my-skill\ndescription: Does things.\n\n# Body",
        "Add a line that is exactly `---` after the last frontmatter field.";
    EmptyFrontmatter = "S004", "the frontmatter is empty",
        "---\n---\nBody",
        "Add at least `name` and `description` between the fences.";
    FrontmatterNotMapping = "S005", "the frontmatter is not a mapping of keys to values",
        "---\n- name: my-skill\n---",
        "Write the frontmatter as `key: value` lines, not a list or a lone scalar.";
    YamlSyntax = "S006", "the frontmatter is not valid YAML",
        "---\nname: [my-skill\n---",
        "Fix the YAML at the given line and column; quote values that contain special characters.";
    UnquotedColon = "S007", "a plain value contains `: `, which YAML reads as a nested mapping",
        "---\nname: my-skill\ndescription: Use when: the user asks\n---",
        "Quote the value: `description: \"Use when: the user asks\"`. The fix-it shows the quoted line.";
    AnchorOrAlias = "S008", "anchors and aliases are not allowed",
        "---\nname: &n my-skill\ndescription: *n\n---",
        "Write the value out in full. Aliases are how YAML bombs (billion laughs) expand; no skill needs them.";
    Tag = "S009", "YAML tags are not allowed",
        "---\nname: !!str my-skill\n---",
        "Remove the tag; quote the value if you wanted a string.";
    DuplicateKey = "S010", "a key appears twice in one mapping",
        "---\nname: a\nname: b\n---",
        "Keep one of the two entries. Most YAML loaders silently keep the last one.";
    TooDeep = "S011", "the frontmatter nests deeper than the limit",
        "---\nx: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n---",
        "Flatten the structure. The limit (`max_yaml_depth`, default 64) protects the compiler's stack.";
    NonStringKey = "S012", "a mapping key is not a string",
        "---\n1: one\n---",
        "Use a string key; quote it if it looks like a number.";
    MissingField = "S101", "a required field is missing",
        "---\nname: my-skill\n---",
        "Add the field. `name` and `description` are required by the Agent Skills specification.";
    WrongType = "S102", "a field has the wrong type",
        "---\nname: 123\n---",
        "Give the field a value of the expected type; quote scalars that should be strings.";
    NameCharacters = "S103", "the skill name has invalid characters",
        "---\nname: My_Skill\n---",
        "Use lowercase letters, digits and single hyphens: `my-skill`.";
    NameTooLong = "S104", "the skill name is longer than 64 characters",
        "---\nname: a-name-that-goes-on-and-on-and-on-and-on-and-on-and-on-and-on-and-on\n---",
        "Shorten the name to at most 64 characters (and rename the directory with it).";
    NameHyphens = "S105", "the skill name starts or ends with a hyphen, or has `--`",
        "---\nname: -my--skill-\n---",
        "Remove edge hyphens and collapse runs of hyphens: `my-skill`.";
    NameMismatch = "S106", "the skill name differs from its directory name",
        "skills/deploy/SKILL.md with `name: deployer`",
        "Rename the directory or change `name` so they match (compared after NFKC normalisation).";
    EmptyDescription = "S107", "the description is empty",
        "---\nname: my-skill\ndescription: \"\"\n---",
        "Say what the skill does and when a model should use it.";
    DescriptionTooLong = "S108", "the description is longer than 1024 characters",
        "---\nname: my-skill\ndescription: <1,025 characters>\n---",
        "Shorten it to at most 1024 characters; move detail into the body, which is read only when the skill loads. An error in `portable` (the specification's limit); in `extended` and `lenient` a warning, and the skill loads, as the hosts load it: the help says what each does with this description (Claude Code lists the first 1,536 characters, Codex cuts at 1,024 with `...`, Zed refuses a description over 1,024 bytes).";
    Compatibility = "S109", "`compatibility` is empty or longer than 500 characters",
        "---\ncompatibility: \"\"\n---",
        "Give 1 to 500 characters, or remove the field. In `lenient` an over-long one is a warning and the skill loads.";
    Metadata = "S110", "`metadata` is not a mapping of strings to strings",
        "---\nmetadata:\n  owner: {team: infra}\n---",
        "Flatten nested values into string keys (`owner-team: infra`).";
    AllowedTools = "S111", "`allowed-tools` is not a space-separated string",
        "---\nallowed-tools: [Bash, Read]\n---",
        "Write the tools as one string separated by spaces: `allowed-tools: Bash Read`.";
    UnknownKey = "S112", "an unknown frontmatter key",
        "---\ndescripton: Does things.\n---",
        "Fix the spelling (the help names the closest key), or prefix your own keys with `x-`.";
    NotPortable = "S113", "an extension key in the `portable` profile",
        "---\ntriggers: [deploy]\n---  (profile = portable)",
        "Move the key into `metadata`, a sidecar `tools.yaml`, or switch to the `extended` profile.";
    EmptyName = "S114", "the skill name is empty",
        "---\nname: \"\"\n---",
        "Give the skill a name equal to its directory name.";
    ReservedMetadataKey = "S115", "a `metadata` key under the prefix MCP reserves for its extensions",
        "---\nmetadata:\n  io.modelcontextprotocol/skills: mine\n---",
        "Rename the key: MCP's skills extension (SEP-2640) reserves `metadata` keys that start with `io.modelcontextprotocol/` for metadata its extensions define, and hosts ignore those they do not know. Use a prefix of your own (`acme/...`).";
    Kind = "S201", "`kind` is neither `skill` nor `protocol`",
        "---\nkind: playbook\n---",
        "Use `kind: skill` (the default) or `kind: protocol`.";
    ProtocolIncomplete = "S202", "a protocol lacks steps, post-checks or an escape hatch",
        "---\nkind: protocol\nsteps: [Do it]\n---",
        "Declare `steps`, `post_checks`, `on_deviation`, `on_blocked` and `on_already_done`.";
    ProtocolKeyOnSkill = "S203", "a protocol-only key on a plain skill",
        "---\nsteps: [Do it]\n---",
        "Add `kind: protocol`, or remove the key.";
    StringList = "S204", "a list field holds something other than non-empty strings",
        "---\ntags: [ok, \"\", {a: b}]\n---",
        "Give a list of non-empty strings (a single string counts as one item).";
    Area = "S205", "`area` is not one of the configured areas",
        "---\narea: hobbies\n---  (areas = [\"home\", \"workflows\"])",
        "Use one of the areas listed in `[package.metadata.skills] areas`.";
    Version = "S206", "`version` is not a positive integer or a quoted semver string",
        "---\nversion: 0\n---",
        "Use a positive integer (`version: 2`) or a quoted semver string (`version: \"1.2.0\"`).";
    ToolsTwice = "S207", "tools or permissions declared in both SKILL.md and tools.yaml",
        "SKILL.md with `tools:` next to a tools.yaml with `tools:`",
        "Keep the declarations in one place; `tools.yaml` keeps SKILL.md portable.";
    ClientExtra = "S208", "a key defined by a well-known client has the wrong type",
        "---\ndisable-model-invocation: \"yes\"\n---",
        "Use the type the client expects (here a boolean: `true`).";
    HostKeyValue = "S209", "a host's key has a value that host does not read",
        "---\neffort: extreme\nshell: zsh\ncontext: thread\npaths: \"src/[a\"\n---",
        "Use a value the host documents: `effort` is `low`, `medium`, `high`, `max` or an integer; `shell` is `bash` or `powershell`; `context` is `inline` or `fork`; `model` is `haiku`, `sonnet`, `opus`, `fable`, `inherit` or a full model ID; each of `paths` is a glob. `cargo skills explain keys` lists each key with the host that reads it.";
    CodexSidecar = "S210", "`agents/openai.yaml` is not what Codex reads",
        "agents/openai.yaml:\ninterface:\n  brand_color: blue\n  icon_small: logo.png",
        "Write the keys Codex reads (`interface`, `dependencies`, `policy`), a `brand_color` as `#RRGGBB`, icons as files under the skill's `assets/`, and `policy.allow_implicit_invocation` as `true` or `false`. `cargo skills explain openai.yaml` lists the keys.";
    ToolShape = "S301", "a tool declaration is malformed",
        "tools:\n  - name: search\n    # no description",
        "Each tool is a mapping with `name`, `description`, optional `parameters` and `endpoint`.";
    ToolName = "S302", "the tool name is not a valid model-API tool name",
        "tools:\n  - name: issues.create",
        "Use 1 to 64 characters: a letter, then letters, digits, `_` or `-`.";
    DuplicateTool = "S303", "two tools share a name",
        "tools:\n  - name: search\n  - name: search",
        "Rename one of them.";
    ToolPrefixBudget = "S304", "the tool name leaves no room for the runtime prefix",
        "a 60-character tool name with tool_name_prefix_budget = 12",
        "Shorten the name so that name + prefix fits in 64 characters.";
    SchemaRoot = "S305", "the parameter schema's root is not `type: object`",
        "parameters:\n  type: string",
        "Wrap the parameters in an object: `type: object` with `properties`.";
    SchemaUnsupported = "S306", "a JSON Schema construct outside the supported subset",
        "parameters:\n  type: object\n  properties:\n    x: {oneOf: [{type: string}, {type: integer}]}",
        "Use the supported subset: string, integer, number, boolean, array, object, string enum, nullable, local $ref.";
    SchemaInvalid = "S307", "the parameter schema is malformed",
        "parameters:\n  type: object\n  properties:\n    x: {type: text}",
        "Fix the keyword's value as the message says.";
    SchemaRequired = "S308", "`required` names a property that is not declared",
        "parameters:\n  type: object\n  required: [title]\n  properties: {}",
        "Declare the property or remove it from `required`.";
    SchemaRef = "S309", "a `$ref` that is remote or names no `$defs` entry",
        "parameters:\n  type: object\n  properties:\n    x: {$ref: \"https://example.com/s.json\"}",
        "Use a local reference `#/$defs/Name` to an entry of the root's `$defs`.";
    EndpointMethod = "S310", "the endpoint method is not an HTTP method",
        "endpoint:\n  method: FETCH",
        "Use GET, HEAD, OPTIONS, POST, PUT, PATCH or DELETE.";
    EndpointUrl = "S311", "the endpoint URL is not an absolute http or https URL",
        "endpoint:\n  url: /api/issues",
        "Give the full URL: `https://host/api/issues`.";
    UnknownPlaceholder = "S312", "a placeholder names no parameter",
        "url: https://h/repos/{{rpo}}",
        "Use the name of a declared parameter (the help names the closest one).";
    PlaceholderInOrigin = "S313", "a placeholder in the URL scheme, host or port",
        "url: https://{{host}}/api",
        "Fix the origin in the URL: a model must never choose where a request goes.";
    OptionalPathPlaceholder = "S314", "a path placeholder names an optional parameter",
        "url: https://h/issues/{{id}}   (id not in required)",
        "Add the parameter to `required`, or move it to the query.";
    BodyTemplate = "S315", "the body template is not valid JSON",
        "body: '{\"title\": {{title}'",
        "Write the body as JSON with placeholders standing as values or inside strings.";
    Placeholder = "S316", "a malformed `{{placeholder}}`",
        "url: https://h/issues/{{ }}",
        "Write `{{name}}` with a parameter name between the braces.";
    EndpointShape = "S317", "the endpoint declaration is malformed",
        "endpoint:\n  method: GET\n  headers: {}",
        "Use the keys `method`, `url`, `query`, `header` and `body`.";
    PlaceholderType = "S318", "a placeholder in a URL or header names a non-scalar parameter",
        "url: https://h/search?tags={{tags}}   (tags is an array)",
        "Use a string, integer, number, boolean or enum parameter there; arrays and objects belong in the body.";
    OptionalStringPlaceholder = "S319", "a placeholder inside a JSON string names an optional parameter",
        "body: '{\"note\": \"by {{user}}\"}'   (user not in required)",
        "An absent value leaves out its member, but a string has no member to leave out: add the parameter to `required`, or let it stand as a whole value (`\"user\": {{user}}`).";
    PatternUnsupported = "S320", "a `pattern` the checker cannot match exactly as ECMA-262 does",
        "parameters:\n  type: object\n  properties:\n    id: {type: string, pattern: \"^(?!admin)\\\\w+$\"}",
        "Tool arguments are checked against `pattern` before a request is sent, with a small linear-time engine. Lookaround, backreferences, `\\p{..}` classes and inline flags have no exact equivalent there: match the text itself (`^[a-z]\\w*$`), list the characters a class holds, or check the rest in the tool's handler.";
    DefaultMode = "S401", "`permissions.default_mode` is neither `readonly` nor `confirm`",
        "permissions:\n  default_mode: open",
        "Use `readonly` (the default) or `confirm`.";
    UnknownPermissionTool = "S402", "a permission list names an undeclared tool",
        "permissions:\n  allow_write: [create_isue]",
        "Name a declared tool (the help names the closest one).";
    ConflictingPermission = "S403", "a tool is in both `require_confirmation` and `allow_write`",
        "permissions:\n  require_confirmation: [delete]\n  allow_write: [delete]",
        "Keep the tool in one list.";
    PermissionsShape = "S404", "the permissions declaration is malformed",
        "permissions: [allow_write]",
        "Use a mapping with `default_mode`, `require_confirmation` and `allow_write`.";
    RootMissing = "S501", "the skills root does not exist or is not a directory",
        "include_skills!(\"skils\")",
        "Create the directory or fix the path (relative to the crate's Cargo.toml).";
    FileNameCase = "S502", "a skill file is named `skill.md` (or another case) instead of `SKILL.md`",
        "skills/deploy/skill.md",
        "Rename it to `SKILL.md`: the lowercase name works on macOS and fails on Linux.";
    SymlinkEscape = "S503", "a symlink leads outside the skills root",
        "skills/shared -> ../../elsewhere",
        "Copy the skill into the root, or point the link at a target inside it.";
    DuplicateSkill = "S504", "two skills have the same name",
        "skills/deploy.md and skills/deploy/SKILL.md",
        "Remove or rename one of them.";
    TooManySkills = "S505", "more skills than `max_skills`",
        "65 skills with the default max_skills = 64",
        "Remove skills or raise `max_skills`: every name and description is sent on every model turn.";
    DocumentTooLarge = "S506", "the file is larger than `max_document_chars`",
        "a 50 MB SKILL.md",
        "Move detail into files under `references/`; raise `max_document_chars` only if you must.";
    FrontmatterTooLarge = "S507", "the frontmatter is larger than `max_frontmatter_bytes`",
        "a 100 KiB frontmatter",
        "Move tools into tools.yaml or trim the frontmatter.";
    Io = "S508", "a file or directory could not be read",
        "a SKILL.md without read permission",
        "Check the file's permissions.";
    FlatLayout = "S509", "a flat `<name>.md` skill in the `portable` profile",
        "skills/deploy.md (profile = portable)",
        "Move it to `skills/deploy/SKILL.md`.";
    Config = "S510", "the `[package.metadata.skills]` configuration is invalid",
        "[package.metadata.skills]\nprofile = \"strict\"",
        "Use the keys and values listed in the configuration docs.";
    AbsoluteRoot = "S511", "the skills root of generated code is an absolute path",
        "include_skills!(\"/home/me/agent/skills\")",
        "Name the root relative to the crate's Cargo.toml (`include_skills!(\"skills\")`): generated code holds the path, and an absolute one breaks every other checkout and remote build cache.";
    TooManyFiles = "S512", "a skill has more files than `max_files`",
        "skills/fonts/ with 600 font files (max_files = 512)",
        "Remove files the skill does not need, add them to `exclude`, or raise `max_files`. 512 files and 16 MiB per skill are the MCP skills extension's limits, which hosts that fetch skills enforce.";
    SkillTooLarge = "S513", "a skill's files hold more bytes than `max_skill_bytes`",
        "skills/data/ with a 40 MB dataset (max_skill_bytes = 16 MiB)",
        "Remove large files, add them to `exclude`, or raise `max_skill_bytes`. Every byte is compiled into the binary.";
    FilesTooDeep = "S514", "a skill's folders nest deeper than 16 levels",
        "skills/a/loop -> . (a symlink to its own folder)",
        "Flatten the folders, or remove the symlink that loops back.";
    FileSymlinkEscape = "S515", "a symlink in a skill leads outside the skill directory",
        "skills/pdf/LICENSE -> ../../LICENSE",
        "Copy the file into the skill, or point the link at a file inside the skill directory: a host that installs the skill gets its directory, not the link's target.";
    BrokenLink = "S516", "a link in the body points to a file the skill does not have",
        "See [the API](reference/api.md) (and there is no reference/api.md)",
        "Fix the path (the fix-it names the file of that name when the skill has exactly one), or add the file. A model that follows the link gets nothing. A warning in `lenient`.";
    LinkOutsideRoot = "S517", "a link in the body leads outside the skills root",
        "See [the guide](../../docs/guide.md)",
        "Copy the file into the skill and link it there: outside the skills root nothing is compiled in or installed.";
    NoSkills = "S518", "no skill found in the skills root",
        "cargo skills check skills   (skills/<owner>/<repo>/<skill>/SKILL.md: a collection of collections)",
        "A skills root holds one folder per skill, each with a SKILL.md directly inside. A check, build or load that finds none fails rather than pass having checked nothing. The message names the folders it found and how deep the nearest SKILL.md is: name the folder that holds the skill folders, check every nested collection with `cargo skills check --recursive ROOT`, or create a skill with `cargo skills new NAME`.";
    LockFile = "S519", "`skills-lock.json` cannot be read",
        "skills-lock.json: {\"version\": 2, \"skills\": {}}",
        "The lock is JSON with `version` 1 and a `skills` object of one object per skill (the project lock of Vercel's `skills` CLI). Fix the file by hand (a merge conflict left in it, for one), or delete it and write it again with `cargo skills lock`.";
    LockMismatch = "S520", "a skill differs from its entry in `skills-lock.json`",
        "[package.metadata.skills] locked = true, and skills/pdf/SKILL.md edited after `cargo skills add`",
        "With `locked = true` (or `check --locked`) every skill must be exactly what the lock recorded: its files byte for byte and their exec bits. The message names the files that differ. Restore what was locked with `cargo skills sync NAME` (the recorded commit, verified), or move to upstream's newest with `cargo skills update NAME`; when the edit is meant, record it with `cargo skills lock NAME` (a vendored skill's entry then becomes a local copy: no commit and no signer, since no source holds the edited bytes; where it came from is kept under `vendoredFrom`). A skill that is in the root and not in the lock is refused too: lock it with `cargo skills lock`, or add it with `cargo skills add`.";
    CaseCollision = "S521", "two files of a skill differ only in case or in Unicode normalisation",
        "skills/a/references/Guide.md and skills/a/references/guide.md (or skill.md beside SKILL.md, or `café.md` written in NFC and in NFD)",
        "Rename or remove one of them. On a disk that folds case (macOS, Windows) the two are one file, and macOS also stores a name in one Unicode normalisation: whichever is written last replaces the other, and the file that was checked may not be the one a host reads.";
    SetTooLarge = "S522", "the skills' files together hold more bytes than `max_set_bytes`",
        "64 skills of 4 MB each (max_set_bytes = 128 MiB)",
        "Every valid skill's files are counted together (SKILL.md and every file): that is what a binary embeds and a server holds in memory. Remove large files, add them to `exclude`, or raise `max_set_bytes`. The files are not read: the limit holds before any of them is.";
    BundleTooLarge = "S523", "a skill's zip bundle is over a hosted API's upload limit",
        "skills/media (9 MB of video, zipped: 9.1 MB; Anthropic takes 8 MB)",
        "`cargo skills pack` checks every bundle against the upload limits the hosted APIs document before it writes any, so a bundle that would be refused at upload is refused here. Move large files out of the skill (a URL to fetch them from, say), or split the skill.";
    SignatureTampered = "S524", "a file of a signed skill is not what its signature lists",
        "skills/pdf/scripts/fill.py: changed since `skill.oms.sig` was signed",
        "A file was changed, added or removed after the publisher signed the skill: the bytes are not the ones they released. Get the skill again from its publisher (`cargo skills update NAME`), or, for your own skill, sign it again (`cargo skills sign DIR --key KEY.pem --cert-chain LEAF.pem`).";
    SignatureUntrusted = "S525", "a skill's signature does not verify, or its certificates do not chain to a trusted anchor",
        "skills/pdf/skill.oms.sig: signed by `CN=Someone`, whose chain (`CN=Someone` <- `CN=Their CA`) reaches none of the trusted anchors",
        "Add the publisher's root certificate to `trust` (in `[package.metadata.skills]`, or `--trust FILE.pem`) if you trust them; otherwise the skill is not from who you expected. A signature that does not verify with its own certificate was altered: fetch the skill again.";
    SignatureMalformed = "S526", "`skill.oms.sig` is not a signature this build can read",
        "skills/pdf/skill.oms.sig:1:1: expected a Sigstore bundle v0.3 (JSON)",
        "The file must be a Sigstore bundle v0.3 as OpenSSF Model Signing writes it: a DSSE envelope over an in-toto statement, with an X.509 certificate chain. Sign again with `cargo skills sign` or `model_signing sign certificate`.";
    Unsigned = "S527", "a skill has no `skill.oms.sig` where signatures are checked",
        "skills/pdf: no `skill.oms.sig`, and `require_signatures = true`",
        "Ask its publisher for a signed release, sign your own skill (`cargo skills sign`), or, if unsigned skills are acceptable, drop `require_signatures` (an unsigned skill is then a warning).";
    TrustAnchor = "S528", "a trust anchor cannot be read as PEM certificates",
        "Cargo.toml: `trust` names `certs/vendor.pem`, which holds no `CERTIFICATE` block",
        "List PEM files of the roots you trust in `trust` (relative to Cargo.toml), each with at least one `-----BEGIN CERTIFICATE-----` block.";
    CaseSyntax = "S601", "a trigger case file that is not valid JSON, YAML or CSV",
        "evals/eval_queries.json: [{\"query\": \"fill this form\", \"should_trigger\": true,}]",
        "Fix the syntax at the given line and column. Case files are JSON (or YAML, which `cargo skills test` reads with the same parser), or CSV for OpenAI's `id,should_trigger,prompt`.";
    CaseShape = "S602", "a trigger case that is not in the shape its format has",
        "[{\"query\": \"fill this form\", \"should_trigger\": \"yes\"}]",
        "A skill's `evals/eval_queries.json` is an array of `{\"query\": str, \"should_trigger\": bool}`; a set's case file (skill-reach) is `{\"queries\": [{\"id\", \"text\", \"expected_skill\": name or null, \"acceptable_skills\": [...]}]}`. Formats of one skill (this array, aigent's `tests.yml`, waza's prompts, OpenAI's CSV) live in the skill's folder, or are given as `--cases SKILL=FILE`.";
    UnknownCaseSkill = "S603", "a trigger case names a skill the set does not have",
        "{\"text\": \"fill this form\", \"expected_skill\": \"pfd\"}",
        "Name a skill of the set (`cargo skills list`), or null for a request no skill is for. The help suggests the closest name.";
    DuplicateCaseId = "S604", "two trigger cases have one id",
        "{\"queries\": [{\"id\": \"q1\", ...}, {\"id\": \"q1\", ...}]}",
        "Give each case its own id: the report's lines and a CI's history are keyed by it.";
    CaseFileTooLarge = "S605", "a trigger case file over 16 MiB",
        "evals/eval_queries.json of 100 MB",
        "Cases are text a person wrote and reviews; split a generated set into files under 16 MiB.";
    TriggerCaseFailed = "S606", "a trigger case the router answers wrong",
        "cases.json: {\"id\": \"q3\", \"text\": \"merge these PDFs\", \"expected_skill\": \"pdf\"} chose `docx`",
        "`cargo skills test` routed the case's request to another skill, or to none (or chose a skill for a request no skill is for). `cargo skills route --explain QUERY` shows why: the words each skill matched and in which field, the words no skill has (they count neither way), the confidence and the cut. If the description does not say what the skill is for in the request's terms, say it in a sentence; do not paste the case's words into it (a model reads the description, and a keyword list fits the test set only).";
    SkillLeftOutOfCatalogue = "S607", "a trigger case is for a skill that has errors, left out of the catalogue",
        "cases.json: \"expected_skill\": \"incident-triage\", and skills/incident-triage has S007",
        "A skill with errors is not listed by a host, so no router can choose it: its cases fail with this reason, and the rest of the run goes on. Fix the skill (`cargo skills check`) and run the trigger tests again.";
    RouteRecord = "S608", "a record of a model's verdicts that cannot be replayed",
        "trigger-record.json: recorded for `anthropic:claude-sonnet-4-5`, replayed for `anthropic:claude-opus-4`",
        "`--replay FILE` reads what `--record FILE` wrote: a JSON object with `model`, `catalogue` (the digest of the listed text) and `verdicts`. Replay it for the model it was recorded with; a record that is truncated or edited by hand is refused. Record again with `cargo skills test --router MODEL --record FILE` and a key in the environment.";
    DirectoryWithoutSkill = "W001", "a directory in the skills root holds no SKILL.md",
        "skills/notes/README.md",
        "Add a SKILL.md, or move the directory out of the skills root.";
    NonAsciiName = "W002", "the skill name is not ASCII",
        "---\nname: навык\n---",
        "Valid, but some clients and file systems mishandle non-ASCII names; prefer ASCII for portability.";
    CommaSeparatedTools = "W003", "`allowed-tools` looks comma-separated",
        "---\nallowed-tools: Bash, Read\n---",
        "Separate the tools with spaces: `allowed-tools: Bash Read`.";
    ToolNameCase = "W004", "two tool names differ only in case",
        "tools:\n  - name: Search\n  - name: search",
        "Rename one: some clients compare tool names case-insensitively.";
    DerivedFrontmatter = "W005", "no frontmatter; name and description were derived (lenient)",
        "# Deploy\n\nDeploys the app.",
        "Add a frontmatter with `name` and `description` so the skill is portable.";
    DerivedDescriptionCut = "W006", "a description derived from the body was cut to 1,024 characters (lenient)",
        "# Deploy\n\n<a first paragraph of 3,000 characters>",
        "Add a frontmatter with a `description` of at most 1,024 characters that says what the skill does and when to use it.";
    PlaceholderDescription = "W007", "a description is still a placeholder (left by `cargo skills new` or a template)",
        "---\nname: deploy\ndescription: \"TODO: say what deploy does and when a model should use it.\"\n---",
        "Say what the skill (or tool) does and when a model should use it. The placeholder is sent to the model on every turn.";
    NoWhenToUse = "W008", "the description never says when to use the skill",
        "---\nname: deploy\ndescription: Deploys the app.\n---",
        "Add a clause that says when a model should pick the skill: `Use when the user asks to ship a release.` Hosts choose skills by their descriptions alone.";
    SimilarDescriptions = "W009", "two descriptions are so alike that a model cannot choose between them",
        "skills/a: \"Formats SQL queries. Use when asked to format SQL.\"\nskills/b: \"Format SQL queries; use it when asked to format SQL.\"",
        "Say what sets each skill apart (its inputs, its tools, when to prefer it), or merge the two skills into one.";
    LongBody = "W010", "the body is longer than the Agent Skills client guide recommends",
        "a SKILL.md body of 800 lines",
        "Keep the body under 500 lines and about 5,000 tokens; move detail into files under `references/` that the body links to, which a model reads only when it needs them.";
    OverBudget = "W011", "the catalog is over a configured context budget",
        "[package.metadata.skills.budget]\nhosts = [\"claude-code\"]\n(and 60 skills with 300-character descriptions)",
        "Shorten the longest descriptions or remove skills; `cargo skills budget` shows each host's cut. `level = \"deny\"` in the `budget` table makes this an error.";
    HiddenText = "W012", "text a model reads holds characters that do not show",
        "description: \"Formats dates.\\U000E0049\\U000E0067\\U000E006E...\" (Unicode tag characters: text a model reads and a reviewer cannot see)",
        "Remove the characters the message shows escaped. Tag characters (U+E0000 to U+E007F) spell hidden ASCII; zero-width and text-direction characters hide or reorder text; control characters (ESC, NUL, DEL) act on a terminal instead of showing. Every text a model reads is looked at: the description and body, tool and parameter descriptions, the names of the skill's files and the text of those that are UTF-8. A warning in `extended` and `lenient`, an error in `portable`.";
    FileLeftOut = "W013", "an entry of a skill directory cannot be embedded",
        "skills/a/fifo (a named pipe), or a file whose name is not UTF-8",
        "Rename or remove it, or add it to `exclude`. Only regular files with UTF-8 names are compiled in; `cargo skills show NAME --files` lists what was left out and why.";
    LinkIntoOtherSkill = "W014", "a link in the body points into another skill",
        "skills/a/SKILL.md: See [shared notes](../b/notes.md)",
        "Copy the file into this skill. A host that installs this skill alone will not have the other one.";
    UnknownFragment = "W015", "a link's `#fragment` matches no heading",
        "See [setup](reference.md#instal) (the heading is `## Install`)",
        "Link a heading that exists: fragments are the heading's text in lower case, spaces as `-`, punctuation dropped (`## Set up` is `#set-up`).";
    MissingCodePath = "W016", "a backticked `scripts/`, `references/` or `assets/` path does not exist",
        "Run `scripts/fill_form.py` (and the skill has no scripts/fill_form.py)",
        "Fix the path or add the file. Only a warning: skills also name paths of the user's repository.";
    UnlinkedReference = "W017", "a file under `references/` that nothing links to",
        "skills/a/references/old.md, named by no link or path in the skill",
        "Link it from the body (`[old notes](references/old.md)`) so that a model knows when to read it, or remove it. Off by default, on in `portable`; `unlinked_references = true` turns it on.";
    SkillLints = "W018", "a skill's `metadata.skills-lints` does not parse",
        "metadata:\n  skills-lints: allow S101",
        "Write a level, then the lint codes it applies to: `allow W008 W010; deny W009`. Levels are `allow`, `warn` and `deny`; only `W` codes are lints.";
    CatalogCutsWhen = "W019", "the text catalog cuts the description before its when-to-use clause",
        "description: <250 characters of what the skill does>. Use when the user asks to ship.",
        "The text catalog (`SkillSet::catalog`, `cargo skills catalog`) shows at most `catalog_chars` characters of each description (240 by default), and a model picks a skill by the clause that says when to use it. Put that clause first, shorten the description, or raise `catalog_chars`.";
    DescriptionBytes = "W020", "a description within 1,024 characters but over 1,024 bytes, which Zed refuses",
        "description: <1,014 characters, many of them accented: 1,078 bytes>",
        "Zed checks the description's length in UTF-8 bytes when it loads a skill, and refuses one over 1,024; the specification and every other host count characters. `portable` promises a skill that loads everywhere, so it warns. Shorten the description until it fits in 1,024 bytes.";
    HardLink = "W021", "a file of the skill is a hard link",
        "skills/a/assets/data.txt, one of two names of one file (`ln ../data.txt assets/`)",
        "A hard link is one file with two names: what is written through the other name, which may be outside the skill, is what the build compiles in and the server serves. Git never makes one, so it was made by hand or by a tool. Copy the file into the skill instead (`cp --remove-destination`), or add it to `exclude`.";
    HostKeysDisagree = "W022", "two host keys of one skill contradict each other",
        "---\nbackground: true\nallowed-tools: Bash\ndisallowed-tools: Bash\n---",
        "`background` only acts with `context: fork`: add it or remove `background`. A tool in both `allowed-tools` and `disallowed-tools` is denied by Claude Code: keep it in one list.";
    HostKeyAlias = "W023", "a host key written in a spelling its documentation does not use",
        "---\ndisallowedTools: Bash\n---",
        "Write the documented spelling (`disallowed-tools`): the alias is read today but is not documented, and other tools do not know it.";
    SingleBracePlaceholder = "W024", "a `{name}` with one brace names a parameter",
        "url: https://api.example.com/items/{id}",
        "A placeholder has two braces: `{{id}}`. With one, the text `{id}` is sent as written (in a URL, `%7Bid%7D`) and the parameter's value is dropped.";
    UnusedParameter = "W025", "a tool's parameter that no placeholder of its endpoint uses",
        "parameters:\n  properties:\n    id: {type: string}\nendpoint:\n  url: https://api.example.com/items",
        "The model is asked for the value and it is never sent. Use it in the URL's path or query, a header or the body (`{{id}}`), or remove the parameter.";
    LockEntryWithoutFiles = "W026", "a lock entry checked by its `computedHash` alone",
        "skills-lock.json: \"pdf\": { \"source\": \"anthropics/skills\", \"computedHash\": \"...\" } (no `files`)",
        "Vercel's CLI writes entries without per-file lines, and drops ours when it re-adds a skill. `computedHash` covers paths and bytes, not modes: a script that lost its execute bit still matches. `cargo skills lock NAME` adds the lines (mode and sha256 of each file) and keeps the entry's source.";
    VendoredWarnings = "W027", "a vendored skill's warnings, counted in one line",
        "skills/pdf: `pdf`, vendored from `anthropics/skills`, has 3 warnings: W008 ×2, W014",
        "A skill the lock records is someone else's files: its warnings would repeat on every command, and editing it breaks the lock. The CLI shows them as one line per skill; `--verbose` shows each, with its place. Report them upstream, or set a lint's level in `[package.metadata.skills.lints]`; `allow W027` hides the line.";
    CasesTakenByAnother = "W028", "two skills take each other's trigger cases",
        "skills/pdf: \"merge these PDFs\" went to `docx`, and `docx`'s \"export to PDF\" went to `pdf`",
        "`cargo skills test` routed a case of one skill to the other (both ways, or more than once one way): a model cannot tell their descriptions apart for these requests. Say in each description what it is for that the other is not, with the words a user would say.";
    NeverChosen = "W029", "a skill that wins fewer than half of its own trigger cases",
        "skills/pdf: `pdf` won 1 of its 3 cases; lost: \"merge these PDFs\", ...",
        "`cargo skills test` chose another skill, or none, for most cases written for this skill. The help names the concepts those requests speak of that the description does not: if the skill is for that, say so in a sentence about what it does. Copying the cases' words into the description fits these cases and no others, and reads as a keyword list to the model; `cargo skills route --explain QUERY` shows what each skill matched.";
    CaseKeyWithoutEffect = "W030", "a trigger case says something the router does not use",
        "tests.yml: {input: \"merge PDFs\", should_match: true, min_score: 0.7}",
        "The key is part of its format, and is read, but changes nothing here: `cargo skills test` judges the choice, not a score or a confidence. The case still runs; drop the key, or keep it for the tool that reads it and allow W030.";
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Code {
    type Err = ();

    /// Parses `S101` or `s101`.
    fn from_str(s: &str) -> Result<Self, ()> {
        Code::ALL
            .iter()
            .copied()
            .find(|code| code.as_str().eq_ignore_ascii_case(s))
            .ok_or(())
    }
}

/// The long form that `cargo skills explain CODE` prints.
pub fn explain(code: Code) -> String {
    format!(
        "{}: {}\n\nExample:\n\n{}\n\nFix: {}\n",
        code.as_str(),
        code.title(),
        indent(code.example()),
        code.fix()
    )
}

/// `docs/diagnostics.md`, generated so that it can never drift from the code table.
pub fn reference_markdown() -> String {
    let mut out = String::from(
        "# Diagnostic codes\n\n\
         Generated from `skills-compiler/src/diagnostics/codes.rs`; \
         `cargo test -p skills-compiler` fails when this file is stale \
         (`UPDATE_DOCS=1 cargo test -p skills-compiler --test docs` rewrites it).\n\n\
         `S0xx` framing and YAML, `S1xx` Agent Skills fields, `S2xx` extensions and protocols, \
         `S3xx` tools, schemas and endpoints, `S4xx` permissions, `S5xx` discovery, limits and \
         configuration, `Wxxx` warnings. In the `lenient` profile some errors are reported as \
         warnings and keep their `S` code.\n",
    );
    for &code in Code::ALL {
        out.push_str(&format!(
            "\n## {}: {}\n\nFails:\n\n```text\n{}\n```\n\nFix: {}\n",
            code.as_str(),
            code.title(),
            code.example(),
            code.fix()
        ));
    }
    out
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|line| format!("    {line}"))
        .collect::<Vec<_>>()
        .join("\n")
}
