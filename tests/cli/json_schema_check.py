#!/usr/bin/env python3
"""Validates weft's JSON results against docs/schema/weft-result.schema.json.

    json_schema_check.py SCHEMA [--all-fields] RESULT.json...

Prints one line per violation (file, where in it, what) and exits 1 when there is any;
2 when it cannot check (no jsonschema, a schema that is not one, a file that is not JSON).
--all-fields: also fails when a property the schema documents shows in none of the
results (the schema describes what weft writes, no more).
Uses Debian's python3-jsonschema (scripts/install-deps.sh installs it).
"""
import json
import sys

try:
    from jsonschema import Draft202012Validator, validators
except ImportError:
    print("json_schema_check: python3 has no jsonschema module: install Debian's "
          "python3-jsonschema (scripts/install-deps.sh, as root)", file=sys.stderr)
    sys.exit(2)


def property_owners(node, pointer, out):
    """Maps id() of each `properties` object in the schema to its JSON pointer."""
    if isinstance(node, dict):
        props = node.get("properties")
        if isinstance(props, dict):
            out[id(props)] = (pointer + "/properties", props)
        for key, value in node.items():
            property_owners(value, pointer + "/" + key, out)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            property_owners(value, pointer + "/" + str(i), out)


def main(argv):
    all_fields = "--all-fields" in argv
    args = [a for a in argv if a != "--all-fields"]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(args[0], encoding="utf-8") as f:
        schema = json.load(f)
    try:
        Draft202012Validator.check_schema(schema)
    except Exception as e:  # jsonschema.SchemaError
        print(f"json_schema_check: {args[0]} is not a valid draft 2020-12 schema: {e}",
              file=sys.stderr)
        return 2

    owners = {}
    property_owners(schema, "#", owners)
    seen = set()
    base_properties = Draft202012Validator.VALIDATORS["properties"]

    def recording_properties(validator, properties, instance, subschema):
        if validator.is_type(instance, "object"):
            for name in properties:
                if name in instance:
                    seen.add((id(properties), name))
        yield from base_properties(validator, properties, instance, subschema)

    Checker = validators.extend(Draft202012Validator, {"properties": recording_properties})
    checker = Checker(schema)

    failures = 0
    for path in args[1:]:
        try:
            with open(path, encoding="utf-8") as f:
                instance = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{path}: not a JSON file: {e}")
            return 2
        errors = sorted(checker.iter_errors(instance), key=lambda e: list(e.absolute_path))
        for e in errors:
            where = "/" + "/".join(str(p) for p in e.absolute_path)
            rule = "/".join(str(p) for p in e.absolute_schema_path)
            print(f"{path}: at {where}: {e.message} (schema: {rule})")
        failures += len(errors)
        if not errors:
            print(f"{path}: valid")

    if all_fields:
        for key, (pointer, props) in sorted(owners.items(), key=lambda kv: kv[1][0]):
            for name in props:
                if (key, name) not in seen:
                    print(f"documented but in none of the results: {pointer}/{name}")
                    failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
