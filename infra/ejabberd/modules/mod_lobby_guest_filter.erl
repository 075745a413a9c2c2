%%% Keeps each guest's stanzas inside its own rooms (docs/security.md "XMPP").
%%%
%%% A guest holds a real XMPP credential, so a modified client could address anyone. On the guests'
%%% host this module drops, in both directions, every stanza between a guest and anything but:
%%%   - the MUC service (its rooms: members-only, so only the rooms the server made it a member of),
%%%   - a server's own domain JID (roster, disco, XEP-0215 ICE servers, ping),
%%%   - the guest's own account (carbons, its other resources).
%%% So no message, presence (subscription requests included) or IQ passes between a guest and another
%%% guest (of its company or another) or an agent's JID; agents reach guests only through rooms.
%%% Within the MUC service, an IQ to a room or to an occupant of one (disco#info, disco#items, a vCard …)
%%% passes only to a room the guest is affiliated with (member, admin, owner): the MUC service answers
%%% disco#info about any room to anyone, and another guest's room must tell a guest nothing (its name,
%%% its features, whether someone is in it). Joining and messaging another room are refused by the room
%%% itself (members-only, occupants only).
%%% One exception, for p2p calls (docs/protocol.md "p2p"): Jingle IQs (XEP-0166, and the answers to
%%% them) between a guest and an agent who is an admin or owner of a room the guest is in right now,
%%% i.e. an agent of the guest's call (its assignment's agents, the appointment agent, a transfer's taker),
%%% the guest's rooms looked for on every node of an ejabberd cluster.
%%%
%%% Why a module: mod_block_strangers lets IQs and body-less messages through and cannot tell a guest
%%% from an agent on another local host; a server-set privacy list can be replaced or declined by the
%%% guest itself (XEP-0016 lets every user edit its lists). A send/receive hook is neither.
-module(mod_lobby_guest_filter).
-behaviour(gen_mod).

-export([start/2, stop/1, reload/3, depends/2, mod_options/1, mod_opt_type/1, mod_doc/0]).
-export([user_send_packet/1, user_receive_packet/1]).

start(Host, _Opts) ->
    case is_guest_host(Host) of
        true ->
            ejabberd_hooks:add(user_send_packet, Host, ?MODULE, user_send_packet, 10),
            ejabberd_hooks:add(user_receive_packet, Host, ?MODULE, user_receive_packet, 10);
        false -> ok
    end,
    ok.

stop(Host) ->
    ejabberd_hooks:delete(user_send_packet, Host, ?MODULE, user_send_packet, 10),
    ejabberd_hooks:delete(user_receive_packet, Host, ?MODULE, user_receive_packet, 10),
    ok.

reload(_Host, _NewOpts, _OldOpts) -> ok.
depends(_Host, _Opts) -> [].

mod_opt_type(guest_host) -> econf:binary();
mod_opt_type(muc_host) -> econf:binary().

mod_options(_Host) -> [{guest_host, <<>>}, {muc_host, <<>>}].

mod_doc() -> #{desc => ["Keeps the guests' stanzas inside their rooms (Lobby)."]}.

is_guest_host(Host) ->
    gen_mod:get_module_opt(Host, ?MODULE, guest_host) == Host.

%% A stanza the guest sends: only to its rooms, a server or itself.
user_send_packet({drop, _} = Acc) -> Acc;
user_send_packet({Pkt, #{jid := Own, lserver := Host} = State} = Acc) ->
    To = xmpp:get_to(Pkt),
    case (allowed(Own, To, Host) andalso room_iq_allowed(Own, To, Host, Pkt))
         orelse jingle_with_agent(Own, To, Host, Pkt) of
        true -> Acc;
        false ->
            logger:info("mod_lobby_guest_filter: dropped a ~ts from ~ts to ~ts",
                        [xmpp:get_name(Pkt), jid:encode(Own), jid:encode(xmpp:get_to(Pkt))]),
            {drop, State}
    end;
user_send_packet(Acc) -> Acc.

%% A stanza for the guest: only from its rooms, a server or itself.
user_receive_packet({drop, _} = Acc) -> Acc;
user_receive_packet({Pkt, #{jid := Own, lserver := Host} = State} = Acc) ->
    case allowed(Own, xmpp:get_from(Pkt), Host) orelse jingle_with_agent(Own, xmpp:get_from(Pkt), Host, Pkt) of
        true -> Acc;
        false -> {drop, State}
    end;
user_receive_packet(Acc) -> Acc.

allowed(_Own, undefined, _Host) -> true;
allowed(Own, Peer, Host) ->
    {OwnUser, OwnServer, _} = jid:tolower(Own),
    {PeerUser, PeerServer, _} = jid:tolower(Peer),
    MucHost = gen_mod:get_module_opt(Host, ?MODULE, muc_host),
    if
        PeerServer == MucHost -> true;
        PeerUser == <<>> -> ejabberd_router:is_my_host(PeerServer);
        PeerUser == OwnUser, PeerServer == OwnServer -> true;
        true -> false
    end.

%% An IQ to a room of the MUC service, or to an occupant of one: only to a room the guest is affiliated
%% with. Everything else (presence, messages, IQs to the service itself) is left to allowed/3 and the rooms.
room_iq_allowed(_Own, undefined, _Host, _Pkt) -> true;
room_iq_allowed(Own, Peer, Host, Pkt) ->
    {RoomName, PeerServer, _} = jid:tolower(Peer),
    MucHost = gen_mod:get_module_opt(Host, ?MODULE, muc_host),
    case xmpp:get_name(Pkt) == <<"iq">> andalso PeerServer == MucHost andalso RoomName /= <<>> of
        false -> true;
        true ->
            {OwnUser, OwnServer, _} = jid:tolower(Own),
            affiliated(RoomName, MucHost, jid:encode({OwnUser, OwnServer, <<>>}), [member, admin, owner])
    end.

%% Whether the JID has one of these affiliations with the room (a room keeps one alone or with its reason).
affiliated(RoomName, Service, Bare, Affiliations) ->
    Affiliation = try mod_muc_admin:get_room_affiliation(RoomName, Service, Bare)
                  catch _:_ -> none end,
    lists:member(Affiliation, Affiliations)
        orelse (is_tuple(Affiliation) andalso lists:member(element(1, Affiliation), Affiliations)).

-define(NS_JINGLE, <<"urn:xmpp:jingle:1">>).

%% A Jingle IQ between the guest and an agent of its call (p2p): the agent is a user of another local
%% host (not the guests' one) and an admin or owner of one of the rooms the guest is in.
jingle_with_agent(_Own, undefined, _Host, _Pkt) -> false;
jingle_with_agent(Own, Peer, Host, Pkt) ->
    {OwnUser, OwnServer, _} = jid:tolower(Own),
    {PeerUser, PeerServer, _} = jid:tolower(Peer),
    is_jingle_iq(Pkt) andalso PeerUser /= <<>> andalso PeerServer /= Host
        andalso ejabberd_router:is_my_host(PeerServer)
        andalso agent_of_guest(OwnUser, OwnServer, jid:encode({PeerUser, PeerServer, <<>>})).

%% a Jingle request, or the answer (result or error) to one
is_jingle_iq(Pkt) ->
    xmpp:get_name(Pkt) == <<"iq">> andalso
        case xmpp:get_type(Pkt) of
            result -> true;
            error -> true;
            _ -> lists:any(fun(El) -> xmpp:get_ns(El) == ?NS_JINGLE end, xmpp:get_els(Pkt))
        end.

%% The guest's rooms are looked for on every node of the cluster, this one first: mod_muc_admin's
%% get_user_rooms reads the table of room users each node keeps for the rooms it holds, and a guest's
%% session and its room may sit on different nodes (docs/operations.md "Scaling"). A node that does not
%% answer within a second counts as holding none of them.
agent_of_guest(GuestUser, GuestServer, AgentBare) ->
    Others = [N || N <- ejabberd_cluster:get_nodes(), N /= node()],
    lists:any(fun(Node) -> agent_in_rooms(guest_rooms(Node, GuestUser, GuestServer), AgentBare) end,
              [node() | Others]).

guest_rooms(Node, GuestUser, GuestServer) when Node == node() ->
    try mod_muc_admin:get_user_rooms(GuestUser, GuestServer) catch _:_ -> [] end;
guest_rooms(Node, GuestUser, GuestServer) ->
    case rpc:call(Node, mod_muc_admin, get_user_rooms, [GuestUser, GuestServer], 1000) of
        Rooms when is_list(Rooms) -> Rooms;
        _ -> []
    end.

agent_in_rooms(Rooms, AgentBare) ->
    lists:any(
      fun(RoomJid) ->
              case binary:split(RoomJid, <<"@">>) of
                  [Name, Service] -> affiliated(Name, Service, AgentBare, [admin, owner]);
                  _ -> false
              end
      end, Rooms).
