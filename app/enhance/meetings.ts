// Meetings (docs/decisions/0046): the schedule form finds a time zone or a member as typed and starts
// from the browser's zone, and the join page opens the room in the page through the provider's
// iframe API. Without JavaScript the form is plain (the zone is the member's saved one) and the
// room opens by its link in a new tab.

import { timeZones, zoneLabel } from "~/lib/time-zone";

declare global {
  interface Window {
    JitsiMeetExternalAPI?: new (
      domain: string,
      options: { roomName: string; parentNode: HTMLElement; width: string; height: number },
    ) => unknown;
  }
}

const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * Every zone in the select: the page lists one region's (decision 0047) and the other regions as
 * choices that bring theirs with the form's next answer; the browser knows them all. The server
 * still judges the zone (a browser's list differs a little from its own).
 */
function allZones() {
  if (typeof Intl.supportedValuesOf !== "function") return;
  const zones = timeZones();
  for (const select of document.querySelectorAll("select[data-zones]")) {
    if (!(select instanceof HTMLSelectElement)) continue;
    const chosen = select.value;
    const none = select.querySelector('option[value=""]');
    const options = zones.map((name) => new Option(zoneLabel(name), name));
    select.replaceChildren(...(none ? [none] : []), ...options);
    select.value = options.some((option) => option.value === chosen) ? chosen : "";
  }
}

/** The member's own zone goes with the form (their times are shown in it); a new meeting starts in it. */
function browserZone() {
  for (const form of document.querySelectorAll("form[data-my-zone]")) {
    const field = document.createElement("input");
    field.type = "hidden";
    field.name = "myZone";
    field.value = zone;
    form.appendChild(field);
  }
  for (const select of document.querySelectorAll("select[data-browser-zone]")) {
    if (select instanceof HTMLSelectElement && [...select.options].some((option) => option.value === zone)) select.value = zone;
  }
}

/** A search field over a long list of options (zones) or checkboxes (members). */
function filters() {
  for (const filter of document.querySelectorAll<HTMLInputElement>("input[data-filter-for]")) {
    filter.hidden = false;
    filter.addEventListener("input", () => {
      const wanted = filter.value.trim().toLowerCase().replaceAll(" ", "_");
      const matches = (text: string | null) => (text ?? "").toLowerCase().replaceAll(" ", "_").includes(wanted);
      const list = document.getElementById(filter.dataset.filterFor ?? "");
      if (list instanceof HTMLSelectElement) for (const option of list.options) option.hidden = !option.selected && !matches(option.text);
      else
        for (const item of list?.querySelectorAll("li") ?? [])
          item.hidden = !item.querySelector("input")?.checked && !matches(item.textContent);
    });
  }
}

/** The room in the page; a plain frame of it if the provider's script cannot load; full screen where the browser can. */
function room() {
  const box = document.querySelector<HTMLElement>("[data-meeting-room]");
  const node = box?.querySelector<HTMLElement>("[data-testid=meeting-room]");
  if (!box || !node) return;
  const origin = box.dataset.origin ?? "";
  const joinUrl = box.dataset.joinUrl ?? "";
  box.hidden = false;
  document.querySelector("[data-testid=meeting-link]")?.setAttribute("hidden", "");
  const roomName = new URL(joinUrl).pathname.slice(1);
  const plainFrame = () => {
    const frame = document.createElement("iframe");
    frame.src = joinUrl;
    frame.allow = "camera; microphone; fullscreen; display-capture";
    frame.className = "h-[600px] w-full";
    frame.title = roomName;
    node.replaceChildren(frame);
  };
  const script = document.createElement("script");
  script.src = `${origin}/external_api.js`;
  script.onload = () => {
    if (window.JitsiMeetExternalAPI)
      new window.JitsiMeetExternalAPI(new URL(origin).host, { roomName, parentNode: node, width: "100%", height: 600 });
    else plainFrame();
  };
  script.onerror = plainFrame;
  document.head.appendChild(script);
  // Spec section 8: a browser that cannot show the meeting full screen says so.
  const unsupported = () => box.querySelector("[data-testid=fullscreen-unsupported]")?.removeAttribute("hidden");
  box.querySelector("[data-fullscreen]")?.addEventListener("click", () => {
    if (!document.fullscreenEnabled || !node.requestFullscreen) return unsupported();
    node.requestFullscreen().catch(unsupported);
  });
}

allZones();
browserZone();
filters();
room();
