// Every name class compiles under `deny(warnings)`, and `parse` takes the
// schema's own spelling: keywords, names that collide after case conversion,
// leading digits, non-ASCII, empty enum values, recursion through `$defs`,
// arrays, maps and options.
#![deny(warnings)]

// The fixtures warn on purpose (non-ASCII names, tool names differing in case):
// skill warnings are `deprecated` warnings, allowed here.
#[allow(deprecated)]
mod agent {
    skills::include_skills!("ui-skills/names", track = false);
}

use agent::self_::{SelfMode, ToolCall};
use skills::TypedCall;

fn main() {
    let call = ToolCall::parse(
        "self",
        r#"{"self": "s", "Self": "S", "self_": "s_", "super": "p", "crate": "c", "type": "t",
            "Type": "T", "match": 1, "gen": true, "async": 1.5, "await": "w", "dyn": "d",
            "try": "y", "a-b": "ab", "a_b": "a_b", "1st": "first", "имя": "name", "_": "u",
            "field": "f", "additional_properties": "ap", "mode": "", "extra": [1]}"#,
    )
    .unwrap();
    let ToolCall::Self_(args) = &call else { panic!("{call:?}") };
    assert_eq!(
        (args.self_.as_str(), args.self_2.as_deref(), args.self_3.as_deref()),
        ("s", Some("S"), Some("s_"))
    );
    assert_eq!((args.super_.as_deref(), args.crate_.as_deref()), (Some("p"), Some("c")));
    assert_eq!((args.r#type.as_str(), args.type2.as_deref()), ("t", Some("T")));
    assert_eq!((args.r#match, args.r#gen, args.r#async), (Some(1), Some(true), Some(1.5)));
    assert_eq!((args.r#await.as_deref(), args.r#dyn.as_deref(), args.r#try.as_deref()), (Some("w"), Some("d"), Some("y")));
    assert_eq!((args.a_b.as_str(), args.a_b2.as_str()), ("ab", "a_b"));
    assert_eq!((args._1st.as_deref(), args.u438_u43c_u44f.as_deref()), (Some("first"), Some("name")));
    assert_eq!((args.field.as_deref(), args.field2.as_deref()), (Some("u"), Some("f")));
    assert_eq!(args.additional_properties.as_deref(), Some("ap"));
    assert_eq!(args.mode, Some(SelfMode::Value));
    assert_eq!(args.additional_properties2["extra"], skills::serde_json::json!([1]));
    // Back to the schema's spelling, member for member.
    let arguments = call.arguments();
    for key in ["self", "Self", "self_", "a-b", "a_b", "1st", "имя", "_", "extra"] {
        assert!(arguments.get(key).is_some(), "{key}");
    }
    for (value, variant) in [("self", SelfMode::Self_), ("Self", SelfMode::Self_2), ("A B", SelfMode::AB), ("a-b", SelfMode::AB2), ("1", SelfMode::V1), ("é", SelfMode::Ue9), ("None", SelfMode::None), ("Some", SelfMode::Some)] {
        assert_eq!(variant.as_str(), value);
        let json = format!(r#"{{"self": "", "type": "", "a-b": "", "a_b": "", "mode": "{value}"}}"#);
        let ToolCall::Self_(args) = ToolCall::parse("self", &json).unwrap() else { panic!() };
        assert_eq!(args.mode, Some(variant));
    }
    assert_eq!(SelfMode::ALL.len(), 9);

    // Tools whose names differ only in case or after case conversion.
    assert!(matches!(ToolCall::parse("Self", "{}").unwrap(), ToolCall::Self_2(_)));
    assert!(matches!(ToolCall::parse("a-b", "{}").unwrap(), ToolCall::AB(_)));
    assert!(matches!(ToolCall::parse("a_b", "{}").unwrap(), ToolCall::AB2(_)));
    assert!(matches!(ToolCall::parse("gen", "{}").unwrap(), ToolCall::Gen(_)));
    assert!(matches!(ToolCall::parse("crate", "{}").unwrap(), ToolCall::Crate(_)));
    assert!(matches!(ToolCall::parse("super", "{}").unwrap(), ToolCall::Super(_)));

    // Recursion through `$defs`: directly, through arrays, maps and options, and mutually.
    let call = ToolCall::parse(
        "type",
        r#"{"node": {"value": 1, "next": {"next": {}}, "children": [{"value": 2}]},
            "list": [[], [[]]], "map": {"a": {"b": {}}}, "a": {"b": {"a": {"b": {}}}}}"#,
    )
    .unwrap();
    let ToolCall::Type(args) = &call else { panic!() };
    assert!(args.node.next.as_ref().unwrap().next.as_ref().unwrap().next.is_none());
    assert_eq!(args.node.children.as_ref().unwrap()[0].value, Some(2));
    assert_eq!(args.list.as_ref().unwrap().0[1].0.len(), 1);
    assert!(args.map.as_ref().unwrap().0["a"].0.contains_key("b"));
    assert!(args.a.as_ref().unwrap().b.a.as_ref().unwrap().b.a.is_none());
    assert_eq!(
        call.arguments(),
        skills::serde_json::json!({"node": {"value": 1, "next": {"next": {}}, "children": [{"value": 2}]},
            "list": [[], [[]]], "map": {"a": {"b": {}}}, "a": {"b": {"a": {"b": {}}}}})
    );

    // Modules named like keywords, digits and non-ASCII; tools named like the generated items.
    assert!(matches!(agent::crate_::ToolCall::parse("ToolCall", "{}").unwrap(), agent::crate_::ToolCall::ToolCall(_)));
    assert!(matches!(agent::r#type::ToolCall::parse("SKILL", "{}").unwrap(), agent::r#type::ToolCall::Skill(_)));
    assert_eq!(agent::r#gen::SKILL.name(), "gen");
    assert_eq!(agent::_3d::SKILL.name(), "3d");
    assert_eq!(agent::u43d_u430_u432_u44b_u43a::SKILL.name(), "навык");
    assert_eq!(agent::SKILLS.len(), 6);
}
