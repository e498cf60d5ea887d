// The demo catalogue, as SQL statements. Each capability adds its own demo rows here.
export async function demoStatements() {
  return [];
}
