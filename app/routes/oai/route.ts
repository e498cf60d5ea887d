import { data } from "react-router";
import { config } from "~/.server/config/config";
import { earliestStamp, type Harvested, harvest, harvested } from "~/.server/content/harvest";
import { translator } from "~/.server/i18n/translate";
import { escapeXml, xmlAnswer } from "~/.server/web/xml";
import { sdgKey } from "~/lib/sdg";
import { dublinCore } from "./dublin-core";
import { datestamp, harvestQuery, OaiError, type OaiRequest, parseRequest, parseToken, resumptionToken, SETS } from "./protocol";

// /oai: OAI-PMH 2.0 (decision 0049), by GET or by a form's POST, for harvesters (BASE, CORE,
// OpenAIRE): the open records in simple Dublin Core, in sets per goal and per kind, listed by
// resumption tokens that never expire, with deleted records kept for good. Closed with the setting.

const OAI = "http://www.openarchives.org/OAI/2.0/";
const XSI = "http://www.w3.org/2001/XMLSchema-instance";
const METADATA_PREFIX = "oai_dc";

export async function loader({ request }: { request: Request }) {
  return answer(request, new URL(request.url).searchParams);
}

export async function action({ request }: { request: Request }) {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded")) throw data(null, { status: 415 });
  const form = await request.formData();
  return answer(request, new URLSearchParams([...form].map(([name, value]) => [name, String(value)])));
}

async function answer(request: Request, params: URLSearchParams) {
  if (!config().openRecords) throw data(null, { status: 404 });
  const url = new URL(request.url);
  const base = `${url.origin}/oai`;
  let parsed: OaiRequest | null = null;
  let body: string;
  try {
    parsed = parseRequest(params);
    body = await VERB_ANSWERS[parsed.verb](parsed.args, url);
  } catch (error) {
    if (!(error instanceof OaiError)) throw error;
    body = `<error code="${error.code}">${escapeXml(error.message)}</error>`;
    // The request's arguments are echoed only when they were legal (the protocol's rule).
    if (error.code === "badVerb" || error.code === "badArgument") parsed = null;
  }
  const attributes = parsed
    ? Object.entries({ verb: parsed.verb, ...parsed.args })
        .map(([name, value]) => ` ${name}="${escapeXml(value)}"`)
        .join("")
    : "";
  return xmlAnswer(
    `<OAI-PMH xmlns="${OAI}" xmlns:xsi="${XSI}" xsi:schemaLocation="${OAI} ${OAI}OAI-PMH.xsd">` +
      `<responseDate>${datestamp(Date.now())}</responseDate><request${attributes}>${escapeXml(base)}</request>${body}</OAI-PMH>`,
    // Lists change with every upload: harvesters ask again rather than read a cached page.
    { "Content-Type": "text/xml; charset=utf-8", "Cache-Control": "no-store" },
  );
}

/** Records' identifiers: `oai:{host}:{id}`, the same for every address the site answers on. */
const identifierOf = (url: URL, id: number) => `oai:${url.hostname}:${id}`;

function idOf(identifier: string, url: URL): number {
  const prefix = `oai:${url.hostname}:`;
  const id = identifier.startsWith(prefix) ? Number(identifier.slice(prefix.length)) : Number.NaN;
  if (!Number.isSafeInteger(id) || id <= 0 || String(id) !== identifier.slice(prefix.length)) {
    throw new OaiError("idDoesNotExist", "No such identifier here.");
  }
  return id;
}

function header(record: Harvested, url: URL) {
  const sets = [record.sdg ? `sdg:${record.sdg}` : null, record.kind ? `kind:${record.kind}` : null].filter(Boolean);
  return (
    `<header${record.item ? "" : ' status="deleted"'}><identifier>${escapeXml(identifierOf(url, record.id))}</identifier>` +
    `<datestamp>${datestamp(record.stamp)}</datestamp>${sets.map((set) => `<setSpec>${set}</setSpec>`).join("")}</header>`
  );
}

const recordXml = (record: Harvested, url: URL) =>
  `<record>${header(record, url)}${record.item ? `<metadata>${dublinCore(record.item, `${url.origin}/records/${record.id}/`, record.texts, record.funding)}</metadata>` : ""}</record>`;

function checkPrefix(prefix: string) {
  if (prefix !== METADATA_PREFIX) throw new OaiError("cannotDisseminateFormat", `Records are given as ${METADATA_PREFIX} only.`);
}

/** ListIdentifiers and ListRecords: a page of records, and a token for the rest (empty on the last page). */
async function list(verb: "ListIdentifiers" | "ListRecords", args: Record<string, string>, url: URL) {
  const resumed = args.resumptionToken === undefined ? null : parseToken(args.resumptionToken, verb);
  const request = resumed?.args ?? args;
  checkPrefix(request.metadataPrefix ?? "");
  const query = harvestQuery(request, resumed?.after ?? 0);
  const size = config().oaiListSize;
  const { records, more } = await harvest(query, size);
  if (records.length === 0) throw new OaiError("noRecordsMatch", "No record matches.");
  const cursor = resumed?.cursor ?? 0;
  const last = records.at(-1)?.id ?? 0;
  const token = more ? resumptionToken({ verb, args: request, after: last, cursor: cursor + records.length }) : "";
  const tokenXml = more || resumed ? `<resumptionToken cursor="${cursor}">${token}</resumptionToken>` : "";
  const entries = records.map((record) => (verb === "ListRecords" ? recordXml(record, url) : header(record, url)));
  return `<${verb}>${entries.join("")}${tokenXml}</${verb}>`;
}

const VERB_ANSWERS: Record<OaiRequest["verb"], (args: Record<string, string>, url: URL) => Promise<string>> = {
  async Identify(_args, url) {
    const earliest = await earliestStamp();
    return (
      `<Identify><repositoryName>${escapeXml(translator("en")("product.title"))}</repositoryName>` +
      `<baseURL>${escapeXml(`${url.origin}/oai`)}</baseURL><protocolVersion>2.0</protocolVersion>` +
      `<adminEmail>${escapeXml(config().appealAddress)}</adminEmail><earliestDatestamp>${datestamp(earliest ?? 0)}</earliestDatestamp>` +
      "<deletedRecord>persistent</deletedRecord><granularity>YYYY-MM-DDThh:mm:ssZ</granularity></Identify>"
    );
  },

  async ListMetadataFormats(args, url) {
    if (args.identifier !== undefined && !(await harvested(idOf(args.identifier, url)))) {
      throw new OaiError("idDoesNotExist", "No such identifier here.");
    }
    return (
      `<ListMetadataFormats><metadataFormat><metadataPrefix>${METADATA_PREFIX}</metadataPrefix>` +
      `<schema>${OAI}oai_dc.xsd</schema><metadataNamespace>${OAI}oai_dc/</metadataNamespace></metadataFormat></ListMetadataFormats>`
    );
  },

  async ListSets(args) {
    // Every set fits one answer: a token can only be one this repository never gave.
    if (args.resumptionToken !== undefined) throw new OaiError("badResumptionToken", "Sets are listed in one answer.");
    const english = translator("en");
    const name = (spec: string) => {
      const [parent, child] = spec.split(":");
      if (parent === "sdg") return child ? `SDG ${child}: ${english(sdgKey(Number(child)))}` : english("content.sdgLabel");
      return child ? english(child === "document" ? "content.document" : "content.video") : english("content.kind");
    };
    return `<ListSets>${SETS.map((spec) => `<set><setSpec>${spec}</setSpec><setName>${escapeXml(name(spec))}</setName></set>`).join("")}</ListSets>`;
  },

  ListIdentifiers: (args, url) => list("ListIdentifiers", args, url),
  ListRecords: (args, url) => list("ListRecords", args, url),

  async GetRecord(args, url) {
    const id = idOf(args.identifier ?? "", url);
    checkPrefix(args.metadataPrefix ?? "");
    const record = await harvested(id);
    if (!record) throw new OaiError("idDoesNotExist", "No such identifier here.");
    return `<GetRecord>${recordXml(record, url)}</GetRecord>`;
  },
};
