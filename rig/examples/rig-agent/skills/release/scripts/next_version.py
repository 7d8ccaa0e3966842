"""Prints the version after CURRENT for a BUMP of major, minor or patch."""
import sys

current, bump = sys.argv[1], sys.argv[2]
major, minor, patch = (int(part) for part in current.split("."))
if bump == "major":
    print(f"{major + 1}.0.0")
elif bump == "minor":
    print(f"{major}.{minor + 1}.0")
elif bump == "patch":
    print(f"{major}.{minor}.{patch + 1}")
else:
    sys.exit(f"unknown bump {bump!r}: use major, minor or patch")
