//! The macros generated code calls for what every skill writes the same
//! way: a tool's argument struct with its conversions, and the skill's
//! `ToolCall` enum. `include_skills!` and the build script write one short
//! invocation per type instead of the items, which keeps `cargo skills
//! expand` readable and the code each user crate lexes small; the items
//! are the same.

/// An argument struct (an object of a tool's parameter schema) with its
/// `FromJson` and `ToJson`: each field with its type in brackets, `always`
/// (required or defaulted: in every checked object) or `maybe` (absent is
/// `None`), and its JSON name; `rest NAME [declared ...]` keeps undeclared
/// members (`additionalProperties: true`). Fragments are matched as token
/// trees, not parsed: rustc expands every invocation on every rebuild of
/// the crate that holds the skills, and a `ty` or `meta` matcher runs the
/// parser on each.
#[doc(hidden)]
#[macro_export]
macro_rules! __skills_args {
    (
        $(#[$($meta:tt)*])*
        $name:ident {
            $( $(#[$($field_meta:tt)*])* $field:ident : [$($ty:tt)*] = $kind:ident $json:tt, )*
        }
        $( rest $rest:ident [$($declared:tt),*] )?
    ) => {
        $(#[$($meta)*])*
        #[derive($crate::__private::Debug, $crate::__private::Clone, $crate::__private::PartialEq)]
        pub struct $name {
            $( $(#[$($field_meta)*])* pub $field: $($ty)*, )*
            $(
                /// Members beyond the declared ones (`additionalProperties: true`).
                pub $rest: $crate::__private::BTreeMap<
                    $crate::__private::String,
                    $crate::__private::serde_json::Value,
                >,
            )?
        }

        impl $crate::__private::FromJson for $name {
            #[allow(unused_variables)]
            fn from_json(
                value: &$crate::__private::serde_json::Value,
            ) -> $crate::__private::Option<Self> {
                let object = $crate::__private::object(value)?;
                $crate::__private::Some($name {
                    $( $field: $crate::__private::$kind::read(object, $json)?, )*
                    $( $rest: $crate::__private::rest(object, &[$($declared),*]), )?
                })
            }
        }

        impl $crate::__private::ToJson for $name {
            fn to_json(&self) -> $crate::__private::serde_json::Value {
                #[allow(unused_mut)]
                let mut object = $crate::__private::serde_json::Map::new();
                $( $crate::__private::$kind::write(&mut object, $json, &self.$field); )*
                $( $crate::__private::put_rest(&mut object, &self.$rest); )?
                $crate::__private::serde_json::Value::Object(object)
            }
        }
    };
}

/// A skill's `ToolCall` enum and its `TypedCall` impl, from each variant
/// with its docs, argument type, index and tool name. The skill's tables
/// are the `SKILL` constant beside the invocation.
#[doc(hidden)]
#[macro_export]
macro_rules! __skills_tool_call {
    ( $( $(#[$($meta:tt)*])* $variant:ident($args:ident) = $index:tt $name:tt, )* ) => {
        /// A call of one of this skill's tools, with typed arguments: parse
        /// one, and build its request, through `skills::TypedCall`.
        #[derive($crate::__private::Debug, $crate::__private::Clone, $crate::__private::PartialEq)]
        pub enum ToolCall {
            $( $(#[$($meta)*])* $variant($args), )*
        }

        impl ToolCall {
            /// The names of this skill's tools.
            pub const NAMES: &'static [&'static str] = &[$($name),*];
        }

        impl $crate::__private::TypedCall for ToolCall {
            const SKILL: &'static $crate::__private::CompiledSkill = SKILL;

            fn from_call(
                call: $crate::__private::Call<'static>,
            ) -> $crate::__private::Result<Self, $crate::__private::ToolCallError> {
                let (index, arguments) = $crate::__private::checked_arguments(SKILL, call)?;
                let typed = match index {
                    $( $index => $crate::__private::FromJson::from_json(&arguments).map(ToolCall::$variant), )*
                    _ => $crate::__private::None,
                };
                typed.ok_or_else(|| $crate::__private::does_not_fit(SKILL, index))
            }

            fn index(&self) -> usize {
                match *self {
                    $( ToolCall::$variant(_) => $index, )*
                }
            }

            fn arguments(&self) -> $crate::__private::serde_json::Value {
                match *self {
                    $( ToolCall::$variant(ref arguments) => $crate::__private::ToJson::to_json(arguments), )*
                }
            }
        }
    };
}

/// A string enum of a tool's parameters (`"enum": ["a", "b"]`), as
/// `include_skills!` writes it: the enum, `ALL` in declaration order,
/// `as_str` as the schema spells each value, and the JSON conversions. One
/// line a value in the generated code, where writing it all out took forty
/// lines an enum. Fragments are matched as token trees, as in `args!`.
#[doc(hidden)]
#[macro_export]
macro_rules! __skills_string_enum {
    (
        $(#[$($meta:tt)*])*
        $name:ident { $( $(#[$($variant_meta:tt)*])* $variant:ident = $value:literal, )* }
    ) => {
        $(#[$($meta)*])*
        // Each derive costs build time in every user crate (BENCHMARKS.md):
        // the ones a value type needs, no ordering.
        #[derive(
            $crate::__private::Debug,
            $crate::__private::Clone,
            $crate::__private::Copy,
            $crate::__private::PartialEq,
            $crate::__private::Eq,
            $crate::__private::Hash
        )]
        pub enum $name {
            $( $(#[$($variant_meta)*])* $variant, )*
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            /// The value as the schema spells it.
            pub fn as_str(self) -> &'static str {
                match self {
                    $( $name::$variant => $value, )*
                }
            }
        }

        impl $crate::__private::FromJson for $name {
            fn from_json(
                value: &$crate::__private::serde_json::Value,
            ) -> $crate::__private::Option<Self> {
                match value.as_str()? {
                    $( $value => $crate::__private::Some($name::$variant), )*
                    _ => $crate::__private::None,
                }
            }
        }

        impl $crate::__private::ToJson for $name {
            fn to_json(&self) -> $crate::__private::serde_json::Value {
                $crate::__private::serde_json::Value::String(
                    $crate::__private::ToOwned::to_owned(self.as_str()),
                )
            }
        }
    };
}
