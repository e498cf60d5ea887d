import files from "virtual:enhance";

/** The hashed address of each module in app/enhance, for the root to name in its pages. */
export const enhanceFiles = files;
