// Any unknown path answers the 404 page with status 404 (not a redirect, so the address stays).
export { default, handle, loader } from "./404";
