import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";
import { deployTarget } from "./lib/deploy-target";

// The spec's route table (section 2), one to one.

export default [
  // Public pages
  route("login", "routes/login.tsx"),
  route("signup", "routes/signup.tsx"),
  route("signup/individual", "routes/signup-form.tsx", { id: "signupIndividual" }),
  route("signup/facilitator", "routes/signup-form.tsx", { id: "signupFacilitator" }),
  route("forgetPassword", "routes/forget-password.tsx"),
  route("logout", "routes/logout.tsx"),
  route("auth/orcid", "routes/orcid/start.ts", { id: "orcidStart" }),
  route("auth/orcid/callback", "routes/orcid/callback.ts", { id: "orcidCallback" }),
  // Local conveniences (the mail outbox, a plain R2 put for the bench, a session for browser tests):
  // only local builds have these routes, so deployed bundles do not contain them.
  ...(deployTarget() === "local"
    ? [
        route("dev/mail", "routes/dev.mail.tsx"),
        route("dev/mail/:id.eml", "routes/dev.mail-raw.ts", { id: "devMailRaw" }),
        route("dev/digest", "routes/dev.digest.ts"),
        route("dev/r2-put", "routes/dev.r2-put.ts"),
        route("dev/session", "routes/dev.session.ts"),
      ]
    : []),
  route("401", "routes/401.tsx"),
  route("404", "routes/404.tsx"),
  route("offline", "routes/offline.tsx"),
  route("sw.js", "routes/service-worker.ts"),
  route("robots.txt", "routes/robots.ts"),
  // Open records (decision 0049): anonymous, where the operator allows them and an owner opened one.
  route("records/:id", "routes/records/record.tsx", { id: "record" }),
  route("records/:id/:file", "routes/records/file.ts", { id: "recordFile" }),
  route("sitemap.xml", "routes/sitemaps/index.ts", { id: "sitemapIndex" }),
  route("sitemaps/:file", "routes/sitemaps/records.ts", { id: "sitemap" }),
  route("oai", "routes/oai/route.ts", { id: "oai" }),

  // Shell actions and resources (forms post here; they answer with a redirect)
  route("shell/sidebar", "routes/shell.sidebar.ts"),
  route("shell/locale", "routes/shell.locale.ts"),
  route("shell/size", "routes/shell.size.ts"),
  route("shell/tags", "routes/shell.tags.ts"),
  route("shell/mentions", "routes/shell.mentions.ts"),
  route("locales/:file", "routes/locales.ts"),
  route("enhance/:file", "routes/enhance.ts"),
  route("redirect/*", "routes/redirect.ts"),
  route("unsubscribe", "routes/unsubscribe.tsx"),
  route("notifications/unsubscribe", "routes/notifications-unsubscribe.tsx", { id: "notificationsUnsubscribe" }),
  route("uploads", "routes/uploads.ts", { id: "uploads" }),
  route("uploads/:id", "routes/uploads.ts", { id: "upload" }),
  route("uploads/:id/parts/:part", "routes/uploads.ts", { id: "uploadPart" }),
  route("uploads/:id/complete", "routes/uploads.ts", { id: "uploadComplete" }),
  route("files/:id", "routes/files.ts", { id: "file" }),
  route("files/:id/thumbnail", "routes/files.ts", { id: "thumbnail" }),
  route("files/:id/captions/:file", "routes/caption-file.ts", { id: "captionFile" }),
  route("report", "routes/report.ts"),
  route("retrieval/detail/cite", "routes/cite.ts", { id: "cite" }),
  route("personal/export", "routes/personal.export.ts", { id: "export" }),
  route("personal/stats/csv", "routes/stats/csv.ts", { id: "statsCsv" }),
  route("personal/notifications/open", "routes/notification-open.ts", { id: "notificationOpen" }),
  route("personal/verification/photo", "routes/verification.photo.ts", { id: "verificationPhoto" }),

  // The main layout: sidebar, header, tags bar
  layout("routes/layout.tsx", [
    index("routes/index.ts"),
    route("home", "routes/home.tsx"),
    route("home/recommendList", "routes/recommend-list.tsx", { id: "recommendList" }),
    route("home/rankingList", "routes/ranking-list.tsx", { id: "rankingList" }),
    route("discovery", "routes/discovery.tsx"),
    route("retrieval", "routes/retrieval.tsx"),
    route("retrieval/detail", "routes/content-detail/route.tsx", { id: "retrievalDetail" }),
    route("retrieval/detail/captions", "routes/captions/route.tsx", { id: "retrievalCaptions" }),
    route("retrieval/detail/texts", "routes/texts/route.tsx", { id: "retrievalTexts" }),
    route("retrieval/detail/funding", "routes/funding/route.tsx", { id: "retrievalFunding" }),
    route("retrieval/detail/version", "routes/version/route.tsx", { id: "retrievalVersion" }),
    route("retrieval/detail/edit", "routes/edit/route.tsx", { id: "retrievalEdit" }),
    route("retrieval/detail/stats", "routes/stats/item.tsx", { id: "retrievalStats" }),
    route("liveStreaming", "routes/meetings.tsx", { id: "liveStreaming" }),
    route("liveStreaming/join", "routes/meeting-join.tsx", { id: "join" }),
    route("message", "routes/message.tsx"),
    route("upload", "routes/upload.tsx"),
    route("personal", "routes/member/route.tsx", { id: "personal" }),
    route("personal/Setting", "routes/settings/route.tsx", { id: "setting" }),
    route("personal/Setting/delete", "routes/settings/delete.tsx", { id: "settingDelete" }),
    route("personal/Setting/notifications", "routes/settings/notifications.ts", { id: "settingNotifications" }),
    route("personal/Setting/orcid", "routes/settings/orcid.ts", { id: "settingOrcid" }),
    route("personal/verification", "routes/verification.tsx", { id: "verification" }),
    route("review", "routes/review.tsx"),
    route("personal/ranking", "routes/my-ranking.tsx", { id: "ranking" }),
    route("personal/stats", "routes/stats/route.tsx", { id: "stats" }),
    route("personal/notifications", "routes/notifications.tsx", { id: "notifications" }),
    route("moderation", "routes/moderation.tsx"),
  ]),

  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
