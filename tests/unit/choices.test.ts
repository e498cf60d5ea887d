import { describe, expect, it } from "vitest";
import { VERIFICATION_FIELDS } from "~/lib/choices";
import { verificationFields } from "~/lib/schemas/verification";

describe("the forms' choices", () => {
  it("name exactly the fields the verification schemas check, in order", () => {
    for (const kind of ["personal", "corporate"] as const)
      expect(VERIFICATION_FIELDS[kind], kind).toEqual(Object.keys(verificationFields[kind].shape));
  });
});
